package rollout

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAnnotationUtilsRevisionHistory is the revision-history part of
// upstream's TestAnnotationUtils (vectors B.14) through
// setNewReplicaSetAnnotations: promoting a ReplicaSet to revisions
// 11 through 20 sets each revision and appends the previous one to the
// history. Upstream passes a 5-byte history limit, which keeps the last two
// entries ("18,19" after 20); the controller's limit is 2000 bytes, which
// keeps them all, so the history here ends with upstream's.
func TestAnnotationUtilsRevisionHistory(t *testing.T) {
	d := Deployment{ObjectMeta: ObjectMeta{Name: "nginx", Annotations: map[string]string{RevisionAnnotation: "1"}}}
	rs := ReplicaSet{ObjectMeta: ObjectMeta{Name: "nginx-rs"}}
	var history []string
	for next := int64(11); next <= 20; next++ {
		setNewReplicaSetAnnotations(&d, &rs, next, true)
		type result struct{ Revision, History, UpstreamTail string }
		want := result{Revision: strconv.FormatInt(next, 10), History: strings.Join(history, ",")}
		got := result{Revision: rs.Annotations[RevisionAnnotation], History: rs.Annotations[RevisionHistoryAnnotation]}
		if next >= 13 {
			want.UpstreamTail = fmt.Sprintf("%d,%d", next-2, next-1)
			if i := strings.LastIndexByte(got.History[:strings.LastIndexByte(got.History, ',')], ','); i >= 0 {
				got.UpstreamTail = got.History[i+1:]
			} else {
				got.UpstreamTail = got.History
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("setNewReplicaSetAnnotations(%d) mismatch (-want +got):\n%s", next, diff)
		}
		history = append(history, strconv.FormatInt(next, 10))
	}
}
