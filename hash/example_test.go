package hash_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/hash"
)

func ExampleSum() {
	t := hash.Template{
		Labels: map[string]string{"app": "web"},
		Spec:   []byte(`{"containers":[{"name":"nginx","image":"nginx:1.9"}]}`),
	}
	// Key order and whitespace in the spec do not matter.
	same := hash.Template{
		Labels: map[string]string{"app": "web"},
		Spec:   []byte(`{ "containers": [ { "image": "nginx:1.9", "name": "nginx" } ] }`),
	}
	fmt.Println(hash.Sum(t), hash.Sum(same))
	// After a name collision the controller mixes in the collision count.
	fmt.Println(hash.SumCollisions(t, 1))
	// Output:
	// 6f98bff6bb 6f98bff6bb
	// 6549cbfd6c
}

func ExampleEqual() {
	deployment := hash.Template{
		Labels: map[string]string{"app": "web"},
		Spec:   []byte(`{"containers":[{"image":"nginx:1.9","name":"nginx"}]}`),
	}
	// The ReplicaSet's template carries the hash label and a spec written
	// differently, with an empty list the API treats as absent.
	replicaSet := hash.Template{
		Labels: map[string]string{"app": "web", hash.Label: "6f98bff6bb"},
		Spec:   []byte(`{"volumes":[],"containers":[{"name":"nginx","image":"nginx:1.9"}]}`),
	}
	fmt.Println(hash.Equal(deployment, replicaSet))

	replicaSet.Spec = []byte(`{"containers":[{"image":"nginx:1.9.3","name":"nginx"}]}`)
	fmt.Println(hash.Equal(deployment, replicaSet))
	// Output:
	// true
	// false
}

func ExampleName() {
	fmt.Println(hash.Name("web", "6f98bff6bb"))
	// Long prefixes are cut so that the name fits in 253 bytes.
	long := hash.Name(fmt.Sprintf("%0250d", 0), "6f98bff6bb")
	fmt.Println(len(long), long[240:])
	// Output:
	// web-6f98bff6bb
	// 253 00-6f98bff6bb
}

func ExampleCanonical() {
	c, err := hash.Canonical(nil, []byte(`{"b": 1, "a": null, "c": [], "d": {}}`))
	fmt.Println(string(c), err)
	_, err = hash.Canonical(nil, []byte(`{"b": 1,}`))
	fmt.Println(err)
	// Output:
	// {"b":1,"d":{}} <nil>
	// hash: invalid JSON at offset 9: invalid character '}' looking for beginning of object key string
}
