package strategicpatch_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/strategicpatch"
)

func deployment() strategicpatch.Schema {
	s, err := strategicpatch.ForStruct(schema.StructIndex("Deployment"))
	if err != nil {
		panic(err)
	}
	return s
}

// kubectl apply computes a three-way patch: the sidecar the last apply
// set and the manifest dropped is deleted; the container an injector
// added to the live object is left alone.
func ExampleCreateThreeWayMergePatch() {
	original := `{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"a:1"},{"name":"sidecar","image":"s:1"}]}}}}`
	modified := `{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"a:1"}]}}}}`
	current := `{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"a:1"},{"name":"sidecar","image":"s:1"},{"name":"istio-proxy"}]}}}}`
	patch, err := strategicpatch.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), deployment(), true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(patch))
	result, err := strategicpatch.StrategicMergePatch([]byte(current), patch, deployment())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(result))
	// Output:
	// {"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"$patch":"delete","name":"sidecar"}]}}}}
	// {"spec":{"template":{"spec":{"containers":[{"image":"a:1","name":"app"},{"name":"istio-proxy"}]}}}}
}

// The Deployment strategy has the retainKeys strategy: a patch that
// switches to Recreate clears rollingUpdate (kubernetes#24198).
func ExampleStrategicMergePatch() {
	live := `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}}}}`
	patch := `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`
	result, err := strategicpatch.StrategicMergePatch([]byte(live), []byte(patch), deployment())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(result))
	// Output:
	// {"spec":{"strategy":{"type":"Recreate"}}}
}

// The last-applied annotation kubectl stores is the manifest itself, with
// the namespace it defaulted and an empty annotations map, ending with a
// newline.
func ExampleModifiedConfiguration() {
	manifest := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2}}`
	modified, err := strategicpatch.ModifiedConfiguration([]byte(manifest), "default")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(modified))
	// Output:
	// {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":2}}\n"},"name":"web","namespace":"default"},"spec":{"replicas":2}}
}

// The HPA pitfall: the last apply set replicas, an autoscaler changed
// them, and the new manifest leaves them out. kubectl apply deletes the
// field (the API server then defaults it to 1).
func ExampleApply() {
	s := deployment()
	created, err := strategicpatch.CreatedObject([]byte(`{"kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3,"paused":false}}`), "default")
	if err != nil {
		fmt.Println(err)
		return
	}
	live, err := strategicpatch.StrategicMergePatch(created, []byte(`{"spec":{"replicas":7}}`), s)
	if err != nil {
		fmt.Println(err)
		return
	}
	applied, err := strategicpatch.Apply(live, []byte(`{"kind":"Deployment","metadata":{"name":"web"},"spec":{"paused":false}}`), "default", s, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(applied.Patch))
	// Output:
	// {"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"paused\":false}}\n"}},"spec":{"replicas":null}}
}
