package difftest

// The cases of internal/strategicpatch/patch_test.go and merge_test.go,
// copied: keep the two in step. They are the main module's unit cases,
// checked here against upstream.

func containers(list string) string {
	return `{"spec":{"template":{"spec":{"containers":` + list + `}}}}`
}

// unitThreeWayCases are internal/strategicpatch's threeWayCases.
var unitThreeWayCases = []struct {
	name                        string
	original, modified, current string
	overwrite, fails            bool
	want                        string
}{
	{name: "image bump: the changed member, with the order of the merged list", original: containers(`[{"name":"app","image":"a:1"}]`), modified: containers(`[{"name":"app","image":"a:2"}]`), current: containers(`[{"name":"app","image":"a:1","imagePullPolicy":"IfNotPresent"}]`), overwrite: true, fails: false, want: `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"image":"a:2","name":"app"}]}}}}`},
	{name: "env var the last apply set, removed: $patch delete", original: containers(`[{"name":"app","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]`), modified: containers(`[{"name":"app","env":[{"name":"B","value":"2"}]}]`), current: containers(`[{"name":"app","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]`), overwrite: true, fails: false, want: `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"$setElementOrder/env":[{"name":"B"}],"env":[{"$patch":"delete","name":"A"}],"name":"app"}]}}}}`},
	{name: "env reordered: only the order list", original: containers(`[{"name":"app","env":[{"name":"A"},{"name":"B"}]}]`), modified: containers(`[{"name":"app","env":[{"name":"B"},{"name":"A"}]}]`), current: containers(`[{"name":"app","env":[{"name":"A"},{"name":"B"}]}]`), overwrite: true, fails: false, want: `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"$setElementOrder/env":[{"name":"B"},{"name":"A"}],"name":"app"}]}}}}`},
	{name: "HPA: replicas dropped from a manifest whose last apply set them: deleted", original: `{"spec":{"replicas":3}}`, modified: `{"spec":{}}`, current: `{"spec":{"replicas":7}}`, overwrite: true, fails: false, want: `{"spec":{"replicas":null}}`},
	{name: "HPA: replicas in neither the last apply nor the manifest: kept", original: `{"spec":{}}`, modified: `{"spec":{}}`, current: `{"spec":{"replicas":7}}`, overwrite: true, fails: false, want: `{}`},
	{name: "no last-applied configuration (kubectl create): nothing is deleted", original: "", modified: `{"spec":{"replicas":3}}`, current: `{"spec":{"replicas":3,"minReadySeconds":5}}`, overwrite: true, fails: false, want: `{}`},
	{name: "strategy switched to Recreate: $retainKeys (kubernetes#24198)", original: `{"spec":{}}`, modified: `{"spec":{"strategy":{"type":"Recreate"}}}`, current: `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}}}}`, overwrite: true, fails: false, want: `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`},
	{name: "unsorted finalizers, unchanged: an order list all the same", original: `{"metadata":{"finalizers":["b","a"]}}`, modified: `{"metadata":{"finalizers":["b","a"]}}`, current: `{"metadata":{"finalizers":["b","a"]}}`, overwrite: true, fails: false, want: `{"metadata":{"$setElementOrder/finalizers":["b","a"]}}`},
	{name: "finalizers reordered into sorted order: the reorder is lost", original: `{"metadata":{"finalizers":["b","a"]}}`, modified: `{"metadata":{"finalizers":["a","b"]}}`, current: `{"metadata":{"finalizers":["b","a"]}}`, overwrite: true, fails: false, want: `{}`},
	{name: "finalizer removed and added: deletion list, additions, order", original: `{"metadata":{"finalizers":["a","b"]}}`, modified: `{"metadata":{"finalizers":["b","c"]}}`, current: `{"metadata":{"finalizers":["a","b"]}}`, overwrite: true, fails: false, want: `{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"$setElementOrder/finalizers":["b","c"],"finalizers":["c"]}}`},
	{name: "overwrite=false: an image another writer changed conflicts", original: containers(`[{"name":"app","image":"a:1"}]`), modified: containers(`[{"name":"app","image":"a:2"}]`), current: containers(`[{"name":"app","image":"a:hotfix"}]`), overwrite: false, fails: true, want: ""},
	{name: "overwrite=true: the manifest wins", original: containers(`[{"name":"app","image":"a:1"}]`), modified: containers(`[{"name":"app","image":"a:2"}]`), current: containers(`[{"name":"app","image":"a:hotfix"}]`), overwrite: true, fails: false, want: `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"image":"a:2","name":"app"}]}}}}`},
	{name: "overwrite=false: the conflict check sorts a replaced list of scalars in the patch", original: `{"spec":{"template":{"spec":{"dnsConfig":{"nameservers":["c"]}}}}}`, modified: `{"spec":{"template":{"spec":{"dnsConfig":{"nameservers":["b","a"]}}}}}`, current: `{"spec":{"template":{"spec":{"dnsConfig":{"nameservers":["a","b"]}}}}}`, overwrite: false, fails: false, want: `{"spec":{"template":{"spec":{"dnsConfig":{"nameservers":["a","b"]}}}}}`},
	{name: "an unknown field, equal on both sides: no patch needed", original: `{"extra":{"a":1}}`, modified: `{"extra":{"a":1}}`, current: `{"extra":{"a":1}}`, overwrite: true, fails: false, want: `{}`},
	{name: "an unknown field that changed", original: `{"extra":{"a":1}}`, modified: `{"extra":{"a":2}}`, current: `{"extra":{"a":1}}`, overwrite: true, fails: true, want: ""},
	{name: "numbers keep upstream's types: 1 and 1.0 differ", original: `{"spec":{"replicas":1}}`, modified: `{"spec":{"replicas":1.0}}`, current: `{"spec":{"replicas":1}}`, overwrite: true, fails: false, want: `{"spec":{"replicas":1}}`},
	{name: "malformed JSON", original: "", modified: `{"spec":`, current: "", overwrite: true, fails: true, want: ""},
	{name: "a list of lists", original: `{"metadata":{"finalizers":[["a"]]}}`, modified: `{"metadata":{"finalizers":[["b"]]}}`, current: `{"metadata":{"finalizers":[["a"]]}}`, overwrite: true, fails: true, want: ""},
	{name: "an object as a merge key value: an error where upstream panics", original: "", modified: containers(`[{"name":{"x":1}}]`), current: containers(`[{"name":{"x":1}}]`), overwrite: true, fails: true, want: ""},
	{name: "a merge key missing", original: "", modified: containers(`[{"image":"a"}]`), current: containers(`[{"name":"app"}]`), overwrite: true, fails: true, want: ""},
}

// unitMergeCases are internal/strategicpatch's mergeCases.
var unitMergeCases = []struct {
	name, original, patch, want string
	fails                       bool
}{
	{name: "null deletes a field", original: `{"spec":{"replicas":7,"paused":true}}`, patch: `{"spec":{"replicas":null}}`, fails: false, want: `{"spec":{"paused":true}}`},
	{name: "a null that matches nothing is dropped", original: `{"spec":{}}`, patch: `{"spec":{"replicas":null,"template":{"metadata":{"labels":{"a":null,"b":"c"}}}}}`, fails: false, want: `{"spec":{"template":{"metadata":{"labels":{"b":"c"}}}}}`},
	{name: "containers merge by name, in the order of $setElementOrder, live-only ones before their next live neighbour", original: containers(`[{"name":"a","image":"1"},{"name":"injected"},{"name":"b","image":"1"}]`), patch: `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":"2"}]}}}}`, fails: false, want: containers(`[{"name":"injected"},{"image":"1","name":"b"},{"image":"2","name":"a"}]`)},
	{name: "$patch: delete removes a list element", original: containers(`[{"name":"a"},{"name":"b"}]`), patch: `{"spec":{"template":{"spec":{"containers":[{"name":"a","$patch":"delete"}]}}}}`, fails: false, want: containers(`[{"name":"b"}]`)},
	{name: "$patch: replace on a list keeps only the patch's elements", original: containers(`[{"name":"a"},{"name":"b"}]`), patch: `{"spec":{"template":{"spec":{"containers":[{"name":"z"},{"$patch":"replace"}]}}}}`, fails: false, want: containers(`[{"name":"z"}]`)},
	{name: "$patch: replace on an object", original: `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}}`, patch: `{"spec":{"strategy":{"$patch":"replace","type":"Recreate"}}}`, fails: false, want: `{"spec":{"strategy":{"type":"Recreate"}}}`},
	{name: "$patch: delete on an object leaves it empty", original: `{"spec":{"strategy":{"type":"Recreate"}}}`, patch: `{"spec":{"strategy":{"$patch":"delete"}}}`, fails: false, want: `{"spec":{"strategy":{}}}`},
	{name: "$retainKeys clears the members it does not list (kubernetes#24198)", original: `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%"}}}}`, patch: `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`, fails: false, want: `{"spec":{"strategy":{"type":"Recreate"}}}`},
	{name: "$retainKeys on a volume switches its source", original: `{"spec":{"template":{"spec":{"volumes":[{"name":"v","configMap":{"name":"c"}}]}}}}`, patch: `{"spec":{"template":{"spec":{"volumes":[{"$retainKeys":["name","secret"],"configMap":null,"name":"v","secret":{"secretName":"s"}}]}}}}`, fails: false, want: `{"spec":{"template":{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}}]}}}}`},
	{name: "$retainKeys must list every member the patch sets", original: `{"spec":{"strategy":{"type":"RollingUpdate"}}}`, patch: `{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":{}}}}`, fails: true, want: ""},
	{name: "$deleteFromPrimitiveList and $setElementOrder on finalizers", original: `{"metadata":{"finalizers":["a","b","c"]}}`, patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"$setElementOrder/finalizers":["c","a","d"],"finalizers":["d"]}}`, fails: false, want: `{"metadata":{"finalizers":["c","a","d"]}}`},
	{name: "finalizers merge as a set", original: `{"metadata":{"finalizers":["a","b"]}}`, patch: `{"metadata":{"finalizers":["b","c"]}}`, fails: false, want: `{"metadata":{"finalizers":["a","b","c"]}}`},
	{name: "finalizers with a repeat: the union follows the live list upstream rewrote in place", original: `{"metadata":{"finalizers":["a","a","b"]}}`, patch: `{"metadata":{"finalizers":["c"]}}`, fails: false, want: `{"metadata":{"finalizers":["a","c","b"]}}`},
	{name: "ports merge by containerPort alone (kubernetes#39188)", original: containers(`[{"name":"a","ports":[{"containerPort":53,"protocol":"TCP"}]}]`), patch: containers(`[{"name":"a","ports":[{"containerPort":53,"protocol":"UDP"}]}]`), fails: false, want: containers(`[{"name":"a","ports":[{"containerPort":53,"protocol":"UDP"}]}]`)},
	{name: "an atomic list is replaced", original: `{"spec":{"template":{"spec":{"tolerations":[{"key":"a"},{"key":"b"}]}}}}`, patch: `{"spec":{"template":{"spec":{"tolerations":[{"key":"c"}]}}}}`, fails: false, want: `{"spec":{"template":{"spec":{"tolerations":[{"key":"c"}]}}}}`},
	{name: "a value of another type replaces", original: containers(`[{"name":"a","resources":{"requests":{"cpu":"1"}}}]`), patch: containers(`[{"name":"a","resources":{"requests":{"cpu":0.5}}}]`), fails: false, want: containers(`[{"name":"a","resources":{"requests":{"cpu":0.5}}}]`)},
	{name: "a new element goes first without an order list, and keeps the directives inside it", original: containers(`[{"name":"a"}]`), patch: containers(`[{"name":"b","$setElementOrder/env":[{"name":"X"}],"env":[{"name":"X"}]}]`), fails: false, want: containers(`[{"$setElementOrder/env":[{"name":"X"}],"env":[{"name":"X"}],"name":"b"},{"name":"a"}]`)},
	{name: "a malformed deletion list", original: `{"metadata":{"finalizers":["a"]}}`, patch: `{"metadata":{"$deleteFromPrimitiveList":["a"]}}`, fails: true, want: ""},
	{name: "an order list with a member the patch list lacks, out of order", original: containers(`[{"name":"a"},{"name":"b"}]`), patch: `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"b"},{"name":"a"}]}}}}`, fails: true, want: ""},
	{name: "$patch: merge is not implemented for lists", original: containers(`[{"name":"a"}]`), patch: containers(`[{"$patch":"merge"}]`), fails: true, want: ""},
	{name: "an unknown $patch value", original: `{"spec":{}}`, patch: `{"spec":{"$patch":"bogus"}}`, fails: true, want: ""},
	{name: "a list whose first element is null: an error where upstream panics", original: `{"metadata":{"finalizers":[null,"a"]}}`, patch: `{"metadata":{"finalizers":["b"]}}`, fails: true, want: ""},
	{name: "an object in a deletion list: an error where upstream panics", original: `{"metadata":{"finalizers":["a"]}}`, patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":[{"a":1}]}}`, fails: true, want: ""},
	{name: "a patch that is not an object", original: `{}`, patch: `[]`, fails: true, want: ""},
}
