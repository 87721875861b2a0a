package revision_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/revision"
)

func ExampleNext() {
	// Annotations of three ReplicaSets: one without a revision, one
	// unparsable, one at revision 4.
	revs := []revision.Rev{
		revision.Of("", false),
		revision.Of("v2", true),
		revision.Of("4", true),
	}
	next, err := revision.Next(revs)
	fmt.Println(next, err)
	// Output: 5 <nil>
}

func ExampleAppendHistory() {
	// A ReplicaSet promoted again and again, with a 5-character limit.
	history := ""
	for old := 11; old <= 14; old++ {
		history = revision.AppendHistory(history, fmt.Sprint(old), 5)
		fmt.Printf("%q\n", history)
	}
	// Output:
	// "11"
	// "11,12"
	// "12,13"
	// "13,14"
}

func ExamplePrune() {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	sets := []revision.Set{
		{Name: "web-a", Created: t0, Rev: revision.Of("3", true), Idle: true},
		{Name: "web-b", Created: t0.Add(time.Minute), Rev: revision.Of("1", true), Idle: false},
		{Name: "web-c", Created: t0.Add(2 * time.Minute), Rev: revision.Of("4", true), Idle: true},
		{Name: "web-d", Created: t0.Add(3 * time.Minute), Rev: revision.Of("2", true), Idle: true},
	}
	// Keep 2: the two lowest revisions (1 and 2) are examined; revision 1
	// still has replicas, so only revision 2 is deleted.
	for _, i := range revision.Prune(sets, 2) {
		fmt.Println("delete", sets[i].Name)
	}
	// Output: delete web-d
}

func ExampleRollback() {
	// Old ReplicaSet at revision 1, new one at revision 2; the annotation
	// asks for "0", the previous revision.
	revs := []revision.Rev{revision.Of("1", true), revision.Of("2", true)}
	to, ok := revision.ParseRollbackTo("0")
	if !ok {
		return
	}
	index, target, err := revision.Rollback(revs, to)
	fmt.Println(index, target, err)

	_, _, err = revision.Rollback(revs, 7)
	fmt.Println(err)
	// Output:
	// 0 1 <nil>
	// unable to find the revision to rollback to
}
