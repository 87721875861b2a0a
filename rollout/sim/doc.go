// Package sim simulates whole rollouts: it drives [rollout.Plan] and
// [rollout.ApplyTo] sync after sync under a deterministic model of pods, with
// time as data.
//
// [Run] starts from a [rollout.State] (often [FromDeployment] followed by
// [WithImage]) and returns the state it started from and every sync as a
// [Step], with the ReplicaSets' sizes and pods after it, and a [Summary]:
// how the rollout ended (an [Outcome]: complete, progress deadline
// exceeded, blocked by quota, ...), how long it took, and the extremes it
// went through (peak pods, fewest available pods, time below the
// availability floor of the moment).
//
// # The pod model
//
// [PodModel] stands in for the ReplicaSet controller and the kubelet: pods
// become ready a fixed time after their creation (plus seeded jitter),
// except those of images listed in NeverReady; they are available once
// ready for the ReplicaSet's minReadySeconds, counted from the second they
// became ready in (the API server keeps the Ready condition's time to the
// second); a deleted pod terminates for
// a fixed time; and a pod quota may refuse creations. Pods are counted in
// cohorts that share their times, so the cost of a sync does not grow with
// its pods.
//
// # Placement
//
// With PodModel.Room set, a created pod is pending until the scheduler
// binds it to a node: Room says, from the pods of the Deployment's
// ReplicaSets that hold a place (running, pending pods excepted, and
// terminating ones until they are gone), how many more may be bound. A
// pending pod is not ready, is deleted before any other (and is gone at
// once: the API server deletes a pod bound to no node without a grace
// period), shows in
// SetCount.Pending, and is bound, oldest first, as soon as a pod frees
// its place; it becomes ready ReadyAfter after binding. A rollout left
// with pods that can never be bound ends with [OutcomeUnplaced]; one that
// waits for old pods to leave finishes later. Room is a count, so it
// models places that any pod of the Deployment can take alike (see
// package rollout/check for how nodes, claims, ports, affinity and
// spreading come to one). Runs with Room never fast-forward: the places
// that free up are not regular.
//
// # The controllers as they run
//
// Under [ModelControllers], Config's zero Model and the default of the
// rolloutctl commands, a run is a discrete event simulation of the
// Deployment controller and the ReplicaSet controller of
// kube-controller-manager together, calibrated against the real v1.36.3
// controllers (TestControllersCalibration):
//
//   - Both are event driven: the Deployment controller syncs (with
//     [rollout.Plan]) when the Deployment or one of its ReplicaSets
//     changes, after its own writes and at its progress re-checks; the
//     ReplicaSet controller syncs a ReplicaSet when it or one of its pods
//     changes (created, ready, deleted, gone) and when a pod becomes
//     available (its minReadySeconds re-check). A key added during its
//     own sync is synced again after it, as a work queue does.
//   - Each controller has its own API client behind a token bucket
//     ([Controllers]: QPS 20, burst 30 by default, as --kube-api-qps and
//     --kube-api-burst), shared by every request it makes: the Deployment
//     controller's ReplicaSet and Deployment writes, the ReplicaSet
//     controller's pod creations and deletions and status writes, and
//     both controllers' events (sent one at a time, after the event
//     recorder's spam filter of 25 per object and type, then one every 5
//     minutes, see "The event budget" below; the ReplicaSet
//     controller's sink, a goroutine of its own, takes a token for one
//     pending event before every creation of a slow-start batch made at
//     an instant with tokens left, where the real one races the
//     creations' goroutines for them; the Deployment controller's sink
//     asks for its token for an event once the request that records it
//     returns, so under a drained client a sync's requests and its
//     events alternate). A write takes effect when its token is granted,
//     and both controllers' informers see it at once, with one
//     simplification: a Deployment controller's sync writes its plan into
//     the objects at its start (a ReplicaSet sync set off by something
//     else before a write is granted reads it early), and each of its
//     ReplicaSet writes sets the ReplicaSet controller to work when it is
//     granted. Under a drained client the new ReplicaSet's pods are so
//     created while the sync waits to scale the old one (1 QPS burst 1,
//     one replica, minReadySeconds 10: complete at 11 s, real runs at
//     10 s, where the model said 13 s when the sync's writes set the
//     ReplicaSet controller to work together at its end).
//   - The ReplicaSet controller creates at most burstReplicas (500) pods a
//     sync, in slow-start batches of 1, 2, 4, ..., each batch's requests
//     made together and the next batch after the last is granted; it
//     deletes its pods in one batch, ranked as upstream's
//     getPodsToDelete ranks them (not ready first, then the most recently
//     ready, then the newest). It writes the status of the pods it listed
//     at the start of its sync when the sync's writes are done, so a
//     status lags behind the pods by the time the bucket takes (in a
//     1,000-replica rollout, the new ReplicaSet reports no pods for
//     seconds after its first pods are ready). Its expectations are met
//     whenever a sync starts, since the informers see every write at once
//     and a ReplicaSet has one sync at a time.
//   - The status is written with the object the sync read (its
//     resourceVersion), as upstream's updateReplicaSetStatus does: when
//     the Deployment controller has written that ReplicaSet (a scale, an
//     annotation) after the sync started, in the run's own order of
//     events, the API server refuses the write with 409 Conflict, and the
//     controller reads the ReplicaSet again and retries once, each
//     request with a token of its client; a refused retry fails the sync,
//     which is retried after the per-item backoff. In a real 1,000-replica
//     rollout (25%/25%, ready after 1 s) the model's four refusals come
//     where a real run's do: 24.4 s against 24.6 s; 37.6 s in both, its
//     GET waiting behind the old ReplicaSet's 236 deletions until 49.45 s
//     in both; 73.8 s against 73.75 s; 87.25 s against 87.2 s.
//     Whether the real controllers' writes conflict at one instant is a
//     race of their goroutines (0, 1 and 10 refusals in three real runs of
//     one case); the model takes its one order. The Deployment
//     controller's ReplicaSet writes never conflict in the model: its
//     sync reads and writes at one instant. A sync's second status write
//     is refused in every order, as upstream's is in every run: the sync
//     that creates the new ReplicaSet writes the revision and condition,
//     drops the object the server returns, and writes the status again
//     with the resourceVersion it read; it takes its token, and the sync
//     fails (see secondStatusWrite). Its status write is also refused,
//     in the run in order, where a sync with no ReplicaSet to write
//     starts at the instant its last status write was granted (it read
//     the Deployment before its informer stored that write): one token,
//     a 1ms pause, and the sync again; real runs have more such
//     refusals, some in syncs that scale a ReplicaSet too (see
//     staleStatus).
//   - A pod is available once its Ready condition's time, to the second
//     (the API server keeps lastTransitionTime so), plus minReadySeconds
//     is not after now: under minReadySeconds 5, a pod ready at 2.3s is
//     available at 7s, and the ReplicaSet controller's re-check comes
//     then.
//   - The kubelet reports each pod's readiness in its own update: of
//     the pods a ReplicaSet created at one instant (one slow-start
//     batch, or the batches of 1, 1, 2, ... that a sync's tokens grant
//     at once) that become ready together (a positive
//     PodModel.ReadyAfter), the ReplicaSet controller's first sync of
//     that instant counts the first, and the others once the work that
//     sync starts is done, so the Deployment controller scales in
//     several steps, as the real controllers do
//     (TestControllersSeeReadyPodsOneByOne; at maxSurge 2
//     maxUnavailable 2 after 1s, 125 of 137 real status increments
//     were one pod).
//   - A creation the pod quota refuses ends the batches of its sync, and
//     the sync fails: the worker's error handler pauses until 1ms has
//     passed since the error before it, not at all after a quiet
//     millisecond (apimachinery's HandleError), then the work queue
//     re-adds the ReplicaSet at the later of its per-item backoff (5ms
//     doubling with every failed sync, up to 1000s) and the grant of the
//     rate limiter's overall bucket (10 a second, burst 100), unless an
//     earlier delayed add of it is pending (the queue keeps one, the
//     earliest). Only a sync that succeeds forgets the failures: the
//     sync after one that created some pods and had others refused
//     keeps the count (v1.36's consistency check fails it while the pod
//     informer has yet to store the creations, where earlier versions
//     found the expectations unmet and forgot). The
//     ReplicaFailure condition is set by the first refusal and kept
//     while syncs keep failing. While terminating pods hold the quota,
//     every sync of the new ReplicaSet is refused and the backoff grows
//     to minutes, as on a real cluster (kubernetes#98656), at times past
//     the progress deadline, which ends the run
//     (TestControllersAgainstRealQuota). A run whose only pending work is
//     such retries at the longest backoff stops.
//   - Pods exist from their creation to the end of their termination and
//     are counted as they exist: Summary.PeakPods counts the old
//     ReplicaSet's pods that the ReplicaSet controller has yet to delete
//     beside the new one's, so it may pass replicas + maxSurge, as on a
//     real cluster; MinAvailable counts the pods that are available, not
//     what the statuses say.
//
// # The event budget
//
// The event recorder's spam filter (client-go's tools/record) keys its
// budget on the source (the controller), the object (kind, namespace,
// name, UID) and the event's type: each ReplicaSet has its own 25 Normal
// events of the ReplicaSet controller (SuccessfulCreate,
// SuccessfulDelete), refilled at one per 5 minutes, kept in the
// controller-manager's memory (lost on a restart, and in an LRU of 4,096
// keys). A ReplicaSet the run starts with has spent min(spec.replicas, 25)
// of it at its creationTimestamp, for the creation of its pods, and got
// one back per 5 minutes since: one created within about two hours of the
// start has less than the full budget, so fewer of its deletions send
// an event, each a token of the client the deletions and creations use.
// A ReplicaSet without a creationTimestamp, or created at or after the
// start, starts with the full budget. [FromDeployment] dates its
// ReplicaSet an hour before the start (12 events back). The real
// controllers' harness (internal/upstream/realsim) starts each case 10 s
// after the first rollout, with the old ReplicaSet's budget spent by it;
// internal/realfig dates the old ReplicaSet so.
//
// Not modelled: scheduling and image pulls (a pod runs when it is
// created; give their time in PodModel.ReadyAfter), API server and
// informer latency, the controllers' worker counts (a Deployment and its
// few ReplicaSets never keep five workers busy), and the resync period.
// The ReplicaSet controller's stale-cache check of v1.36
// (StaleControllerConsistencyReplicaSet, on by default) fails a sync that
// starts before the informer has seen the controller's own last write to
// that ReplicaSet (its status, or a pod it created); the worker pauses a
// millisecond in the error handler and the work queue re-adds the key
// after the per-item backoff. The model's informers see every write at
// once, so it counts the check in one place only: a sync added again
// while it ran, taken again at once after a status write granted at the
// instant it started (earlyResync), in the run in order (the other race
// orders leave it out). There the writes of the next
// millisecond, the Deployment controller's scales among them, come to
// one sync: a rollout at maxSurge 1 maxUnavailable 1 then moves two pods
// a step, as the real one does (45 replicas: 9.15s, real 9.05 to 9.3s;
// 16.3s without the check), and a real run's durations end in .001s or
// .002s as the model's do (10.002s for two waves of pods ready after
// 5s). Elsewhere (after a creation, or a sync that waited for tokens)
// the model does not meet the check, where a real run of a 25-replica
// rollout met it 18 times, each a delay of 5ms or more.
//
// # Races
//
// The real controllers' goroutines race: work due at one virtual instant
// (the ReplicaSet controller's deletions of an old ReplicaSet's pods, its
// creations for the new one, the Deployment controller's next scale-up)
// runs in any order, and the order decides how many pods exist at once
// and how few are available. A run stays deterministic: Run takes the
// work due at one instant in the order it became due for the Result's
// steps and durations, and runs the rollout twice more, once with the
// ReplicaSet syncs that delete pods before the other work of their
// instant (deletions lead: fewer available) and once after it (deletions
// lag: more pods; there the kubelet's removal of the pods whose
// termination ends at the instant comes after its other work too, as a
// real run of 100 replicas at maxSurge 1 with a 5s grace period showed:
// a new pod created while the pod due to go at that instant was still
// there, 103 pods against the 102 of removals first).
//
// Summary.PeakPods and MinAvailable, the figures a gate judges, are the
// worst of the first two orders (PeakPods of the third too from 300
// replicas, below); PeakPodsLow, PeakPodsHigh and
// MinAvailableHigh give the ends over all three. Where the in-order run
// creates a pod at the instant exactly one pod goes (an old pod deleted,
// or a terminating one removed), the real controllers let the creation
// come first now and then, more often as the ReplicaSets grow (in a
// rollout that replaces one pod at a time, 5% of the cycles at 10
// replicas, 18% at 100): from 15 replicas on, where most real runs reach
// it (10 of 12 at 15 replicas, 2 of 10 at 10), PeakPods counts both
// pods, within the pod quota. Where more pods go at the instant of a
// rolling update's creation, it counts the first two creations ahead of
// them, as at the change (the first batch and the first request of the
// second, made from the tokens at hand while the old ReplicaSet's sync
// ranks its pods): a request log of 50 replicas at maxSurge 2
// maxUnavailable 2, ready after 1s with minReadySeconds 2, had the
// step's 4 creations before its 4 deletions at 1 or 2 of the 12 steps of
// each of 3 runs, and one at others (real peaks 54 to 56, the
// likelier orders 52; now 54). Against the real
// controllers' 81 measured cases (TestControllersAgainstReal), PeakPods
// lies within the peaks the real runs reached in all 81, while
// PeakPodsHigh, which defers every deletion and removal of an instant,
// passes the highest real peak by more than 10% in 13 (17 pods for 10
// replicas at 25%/25%, where real runs reach 13 to 15), so it is a bound
// rather than an estimate: rollout/check judges PeakPods, and warns when
// only PeakPodsHigh passes its limit. MinAvailable comes from the
// deletes-first order, in which a ReplicaSet sync that creates pods
// still goes before the deleting syncs that became due after it, for
// its first slow-start batch only, from 15 replicas and a step
// (maxSurge + maxUnavailable) of 10 pods on: the real ReplicaSet
// controller's first creation of such a sync asks for its token before
// the deletions do, and its second batch only once the first is made,
// so with pods ready at once the fewest available is the floor plus
// one, as in the real runs (100 replicas at 25%/25%: 76; 1,000: 751),
// though a few of those still reach the floor (7 of 228 runs measured
// from that step on), where the gate's figure is one above theirs.
// With smaller steps the gate keeps the floor, which real runs reach
// often there (6 of 11 runs of 30 replicas at maxSurge 2 maxUnavailable
// 3). Where pods take time to become ready, the fewest available comes
// from the first step, at the change, where the client's whole burst is
// there to take: how many of the new ReplicaSet's slow-start creations
// ask for tokens before the old one's deletions is a race of the two
// syncs' CPU time that load moves, and the pods they create count once
// ready if the deletions outlast that (1,000 replicas ready after 5s:
// 752 to 758 in 5 of 6 real runs at a load of 2, 781 in 6 of 11 at 4.5
// to 6.5 and in all 8 recorded at 8 to 13). There MinAvailable keeps two
// creations ahead, the first batch and the first request of the second,
// whose goroutines start at that instant too (752, the lowest of 29 real
// runs); MinAvailableHigh, from the in-order run, the whole burst (781).
// No real run measured went below MinAvailable
// (TestControllersAgainstRealResampled).
// Where maxUnavailable is 0 the deletes-first order holds a ReplicaSet
// sync's deletions behind the first creation of their instant (from 15
// replicas, without a pod quota): the old ReplicaSet's sync lists and
// ranks its pods before its deletions ask for tokens, and the new one's,
// scaled up by the Deployment controller's next sync in the same
// instant, asks for its first creation meanwhile. A request log of 50
// replicas at maxSurge 7 maxUnavailable 0 ready at once showed the 7
// creations taking the tokens at hand before any deletion (64 pods) in 1
// of 3 runs and one creation first in the other 2 (58), where the
// deletes-first order said the ceiling, 57; the gate's peak now counts
// the first creation ahead (and the first request of the second batch
// where the first had its token at hand: 59 there). The fewest available cannot go below the
// replicas there, so only the peak moves: 4 peaks of the held-out and
// new-shape samples came within the real runs' range (120 replicas at
// 5/0 ready after 3s: 127 against 127 to 129; 575 at 238/0: 814), none
// left it. With pods ready at once and maxUnavailable above 0 the same
// race decides the fewest available, but no order of it is safe for a
// gate: the kubelet's binding of a created pod races the deletions too,
// so the floor is reached at the change now and then (14 replicas at
// 60%/4: 1 run of 8; 2 at 1/1: 3 of 8) while other samples of such
// shapes never reached it in 5 runs (internal/upstream/realsim README,
// "Races at the floor and the peak").
//
// From 300 replicas, under a client rate limit and without a pod
// quota, PeakPods is the peak of the order that takes deletions last
// (PeakPodsHigh): the old ReplicaSet's sync lists and ranks all its pods
// before its deletions ask for tokens, and the real runs let anything
// from none to the new ReplicaSet's whole first slow-start burst (up to
// 31 pods, as the tokens at hand allow) be created before the old pods'
// deletions take effect, the whole burst in every run of some shapes
// (486 replicas at maxSurge 0 maxUnavailable 49: 517 in 5 runs of 5,
// where the likelier orders said 486; 1,000 at 25%/25% ready after 60s:
// 1,264 to 1,266, where they said 1,253); from 300 replicas the burst is
// about a tenth of the replicas or less. Below 300 the likelier orders'
// peak stays, as the real runs measured there had the lead or not (115
// replicas at 0%/26: 1 to 4 pods ahead).
//
// Races elsewhere (two ReplicaSet syncs' requests interleaving within the
// bucket) are taken in one order only.
//
// # Time, limits and size
//
// Nothing reads the clock. Under ModelSimple (chosen by name; the golden
// recordings' model is ModelSimple with Interval 30s), with Config.Interval the
// controller syncs at fixed intervals, as the golden harness did (every
// 30s); without it the controller is event driven, syncing after each
// change and at each progress re-check, so a rollout whose pods are ready
// at once takes no simulated time at all.
//
// Under ModelSimple, long regular phases, such as a maxSurge of 1 over
// 100,000 replicas, are fast-forwarded (see Run): the Result is the same
// as sync by sync, and the cost grows with the output rather than with
// the syncs. ModelControllers counts pods created at one time, and
// settled pods, in cohorts, so its cost grows with the requests' distinct
// grant times (about 60µs of computing per pod of a 1,000-replica
// rollout, three runs included); once a run settles into a cycle of a
// whole number of seconds (maxSurge 1 with pods ready at once: seven
// Deployment syncs every 0.3s, a period of 3s), it is fast-forwarded
// between the events outside the cycle (the spam filter's refills every
// 5 minutes, the progress re-checks), with the same Result as event by
// event (TestControllersFastForwardChangesNoResult; see ffcontrollers.go
// for why the check of one period proves the periods skipped); in a run
// without steps, whole super-periods of those jumps are taken at once
// where the jumps repeat (ffsuper.go: 2,147,483,647 replicas one pod a
// second, 68 years of rollout, in 1,861 units of work). Config.MaxWork
// bounds the controller syncs and pod writes it computes;
// Config.Observe hands the steps over one at a time, so that a caller
// need not hold them all. A run stops
// at a limit (Config.MaxSyncs, MaxTime, MaxWork) only when asked to, or
// when its syncs keep changing in irregular ways; it then says so with
// OutcomeLimit, which is not a verdict on the rollout.
//
// A ModelControllers run that stops at Config.MaxWork projects the rest
// in Summary.Projection: a lower bound of its duration, proved from the
// pods still to create and delete at the ReplicaSet controller's client
// rate and from the waits for readiness that maxSurge + maxUnavailable
// allow, and an estimate at the pace so far. The figures the run
// measured (PeakPods, MinAvailable) bound the rest's from one side only:
// the rest can raise the peak and lower the fewest available. A run whose
// pod requests provably need more work than MaxWork allows event by
// event (each unit of work handles at most burst of them) stops after
// the Deployment controller's first sync, unless a quota, a pause, pods
// that never become ready, changes to come or a progress deadline within
// reach of a slow client might end it first: the largest Deployment the
// API server accepts, 2,147,483,647 replicas at 25%/25%, gets its
// projection (complete no sooner than 2,490 days at 20 QPS) in
// milliseconds. A run without steps whose rollout moves a few pods at a
// time, which the fast-forward may carry, gets a twentieth of the work
// left instead, and stops there unless it ended.
//
// # Progress deadline
//
// A ModelControllers run reads progressDeadlineSeconds D where the
// Deployment controller does: each sync judges the Progressing condition
// against lastUpdateTime + D, a sync that wrote nothing plans a progress
// re-check at lastUpdateTime + D + 1s (at once if that is less than a
// second away), and the work queue keeps the earliest re-check pending,
// which wakes the controller when it fires. A rollout that completes
// before its pending re-check fires has read D only to find it not yet
// reached, so it runs alike for every larger D: Result.DeadlineFreeFrom
// is the least D from which the run proves so (every timeout judged
// false, no re-check moved to now, and the re-check pending at
// completion firing after it), for a run that completed with all its
// events handled and without replica changes, edits or MaxTime.
// `rolloutctl check` shares such a run between Deployments that differ
// only in a deadline from there up.
//
// The deadline only reports: the sync that finds it exceeded sets
// Progressing False with ProgressDeadlineExceeded, where `kubectl rollout
// status` fails, and the controllers go on. A ModelControllers run goes
// on too, for Config.PastDeadline (an hour by default): its outcome stays
// OutcomeDeadlineExceeded and its Duration ends at
// Summary.DeadlineExceededAt, Summary.CompleteAfterDeadline says when
// the rollout completed afterwards, if it did, and Summary.AfterDeadline
// how the run past the deadline ended (complete, at a limit, or stuck).
// The summary's pod figures (the peak, its range over the racing orders,
// the fewest available) count the whole run, the time past the deadline
// included; Summary.UpToDeadline has them up to the deadline, each order
// counted up to the sync that found its own deadline exceeded, equal to
// those of the run stopped there (PastDeadline -1): on 5,000 drawn runs
// of 1 to 40 replicas (TestUpToDeadlineIsTheStoppedRun), where about one
// in five runs that go on past the deadline reaches worse figures past it. A quota-refused creation
// is then tried again when the ReplicaSet controller's backoff (up to
// 1,000s) has passed, once the quota has room: the real runs of 56
// replicas at a quota of 93 (maxSurge 67%, maxUnavailable 27, pods ready
// after 6s and terminating for 30s) all exceed the deadline at about 10
// minutes and complete at 1,013.6 to 1,014.15s; the model at 1,014.085s.
//
// # Without a simulation
//
// [ComputeBounds] and [BoundsRange] give the surge, the availability floor
// and the fewest size-changing syncs of a strategy for a replica count;
// [PreviewUndo] shows what `kubectl rollout undo` would restore.
package sim
