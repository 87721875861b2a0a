// Package check is the rollout gate as a library: it simulates the
// rollout of every Deployment of an input, at each replica count to check,
// and reports the rules it breaks, each finding with the rule, its
// severity, when in the rollout it happens, a message, and the field to
// change as file, line and path, with the related objects' places.
//
// # Input
//
// An [Input] is built by [Read] from files and directories, or by [Load]
// from manifest documents (package rollout/manifest): Deployments, their
// ReplicaSets and Pods, the namespaces' ResourceQuotas, LimitRanges,
// PodDisruptionBudgets, HorizontalPodAutoscalers and
// PersistentVolumeClaims, and Nodes, each read as an API server of
// [LoadOptions.Version] (the newest minor by default) reads it on
// create (apiVersion required, as kubectl requires
// it; [LoadOptions.Namespace] for the objects that name none, as
// 'kubectl apply -n'). A document that cannot be taken is left out and
// becomes a problem ([Input.Problems]); the rest is checked. An object
// given in two directories (or two files of one directory) splits the
// input: each copy is checked with the policy objects of its own part.
//
// A gate over 'kubectl apply' reads the manifests and the live objects as
// two inputs: [ApplyAll] applies each manifest Deployment onto its live
// match (package rollout/apply), and [Applied] makes the input of the
// Deployments as the API server then stores them, with the live
// ReplicaSets and Pods; a refused apply ([ApplyProblem]) is a problem
// there as a bad document is.
//
// # Run and Report
//
// [Run] checks the input under a [Config] (the rules' limits, the replica
// counts, the pod model) on every core, and returns a [Report]: the
// input's problems first, as findings of [RuleInput], then each
// Deployment's findings by time, one [Result] per Deployment in input
// order, and notes on what was not checked. The report does not depend on
// the number of workers. [Rules] describes every rule, for SARIF rule
// descriptors or test cases.
//
// # Replica ranges and the work budget
//
// A Deployment is checked at each count of its replica range (an HPA's
// minReplicas..maxReplicas, or Config.MinReplicas..MaxReplicas): every
// count of a range of up to 128 under [sim.ModelControllers] and of up
// to 10,000 under the other models, and of a longer one the first 32 and
// the rest spread evenly up to the last. The counts share one work
// budget, Config.Sim.MaxWork, the budget a single run has: each first
// runs with its share, then those that stopped at it run again, smallest
// first, with what the others left. A count computed to the end has the
// findings it has when checked alone; one that stopped at the limit has
// a finding of [RuleLimit] with its projection, which names the limits
// the projection's proved bounds still decide: [RuleMaxDuration] and
// [RuleTimeout] broken by the lower bound of the duration,
// [RuleMaxPods] and [RuleMinAvailable] kept by the pod bounds
// (TestLimitSaysWhatIsDecided, TestLimitWithTimeout); whether and when
// the rollout completes stays unchecked. [Result].Projected lists it. A larger MaxWork never makes a computed count projected
// (TestRangeWorkBudgetProperties).
//
// # One rollout
//
// [Simulate] runs one rollout of a Deployment of an input under a
// [Change] (images, replicas, maxSurge, maxUnavailable, a pod quota, the
// pod model) and the policy objects of its namespace, as `rolloutctl
// simulate` does for its flags, and returns the [Simulation] with its
// title, notes and pod model in words (package rollout/sim/render prints
// it).
//
// # Race orders
//
// Under [sim.ModelControllers] a rollout runs in three orders of the
// controllers' racing work, and a Result's MinAvailable and PeakPods are
// the worse of the two likelier orders (PeakPods the worst of all three
// from 300 replicas under a client rate limit without a pod quota; see
// the sim package's "Races").
// The rules that judge pods over time judge those same figures:
// [RuleMinAvailable] and [RuleMaxPods] break on them between syncs too,
// and [RulePDBDrain] looks at the syncs of both likelier orders and, when
// minReadySeconds is 0 (available pods are then ready pods), at
// MinAvailable itself: a budget keeping k pods warns exactly when the
// reported min available is at most k (TestPDBDrainFollowsMinAvailable).
//
// # Time budget
//
// The progress deadline times each wave of a rollout, the time between
// two syncs that see progress (the Progressing condition's
// lastUpdateTime, read from the simulated syncs), not the whole rollout:
// [RuleDeadline] names the wave that exceeds it, and
// [RuleDeadlineMargin] warns of a wave above [DeadlineMargin] of it.
// [Config.Timeout], a CI's kubectl rollout status --timeout, times the
// whole rollout ([RuleTimeout]). Their findings are at
// spec.progressDeadlineSeconds, with the strategy and the probes that
// time the waves as related places.
//
// # Past the progress deadline
//
// The deadline only reports: the sync that finds it exceeded sets the
// Progressing condition False, where `kubectl rollout status` fails, and
// the controllers go on. Under [sim.ModelControllers] each rollout is
// simulated once, going on past the deadline for Config.Sim.PastDeadline
// (0: [sim.DefaultPastDeadline], an hour; negative: the run stops at the
// deadline), within the same work budget, which counts the whole run
// and nothing more (TestPastDeadlineWork). On the quota case of sim's
// TestPastDeadline that is 443 units of work, where the run stopped at
// the deadline and the two runs again that check made before took 1,295
// (measured on that case). From that one run:
//
//   - [RuleDeadline] fires where the deadline is first exceeded
//     (sim.Summary.DeadlineExceededAt), and its message goes on with what
//     the run past it shows: the rollout completes at
//     sim.Summary.CompleteAfterDeadline, the figure the simulator gives
//     for the same run (TestCompletesAfterDeadline,
//     TestPastDeadlineProperties), with the length of the wave that
//     exceeded the deadline read from the run's own syncs past it; or
//     it is not complete an hour after the deadline, where the run stops;
//     or it can never complete ([RuleNeverFinish], at the last change of
//     its pods), or the work budget ran out ([RuleLimit]).
//   - How the rollout ends is judged as for a rollout without a deadline:
//     [RuleTimeout] and [RuleMaxDuration] by the completion after the
//     deadline (or break where the run stops not complete), the throttle
//     and placement warnings by the run past it, and [Result].Longest
//     counts the completion after the deadline.
//   - [RuleMaxPods], [RuleMinAvailable] and [RulePDBDrain] judge the pods
//     of the whole run, the time past the deadline included: those pods
//     are real, as the controllers go on, and a gate is asked what the
//     cluster will do, not what kubectl reports. A finding past the
//     deadline says so ("after the progress deadline was exceeded at
//     +10m1s: the controllers go on"), and a peak or fewest available
//     reached in that time says so too (TestJudgedPastDeadline: an HPA's
//     scale-up after the deadline; one reached before it does not,
//     TestFiguresBeforeDeadlineSayNothingOfIt). The findings up to the
//     deadline are those of a run stopped there (PastDeadline
//     negative), message for message but for the worse figure below
//     (TestPastDeadlineProperties, 5,000
//     drawn rollouts, and TestFindingsUpToTheDeadlineAsStopped): the
//     syncs up to the one that found the deadline exceeded, and the pods
//     between them, are judged by the figures up to it
//     (sim.Summary.UpToDeadline: the peak, the highest peak of the
//     racing orders, the fewest available), the syncs past it by the
//     whole run's. [RulePDBDrain] is the exception: its drains are judged
//     worst first over the whole run (its fewest available, the syncs of
//     the order that takes deletions first); measured once on 2,000
//     drawn rollouts with a budget (876 exceeded the deadline), 1 drain
//     refused up to the deadline of the run stopped there was placed 1ms
//     later by the run going on (the same fewest available, reached at
//     the deadline's instant after its sync). A limit broken up to the
//     deadline is reported once, there, with the figures up to it, even
//     where the run reaches a worse figure past it (in 911 of the 2,835
//     draws that exceeded the deadline, an HPA's change among the draws,
//     the run's worst figures came past it); the finding then goes on
//     with that figure, so that the rule's one finding does not hide it
//     ("; past the progress deadline, as the controllers go on, 6 pods
//     exist at +22s"). The figures up to the
//     deadline count each racing order up to its own deadline, so a
//     figure of an order that exceeds it later, or never, may come from
//     past the deadline of the order whose syncs are shown; quoted up to
//     the deadline it does not say so, as the run stopped there does not
//     (TestFindingsUpToTheDeadlineAsStopped, "a peak up to a racing
//     order's later deadline").
//
// The hour is a bound on the cost, not a model of the cluster: a
// rollout that completes later is reported not complete then. Where the
// run past the deadline and a run without a deadline both complete, they
// complete at the same time on 1,500 drawn rollouts (measured once,
// not a test: 656 completed both ways, 1 to 30 replicas,
// quotas and slow pods); the runs without a deadline that complete more
// than an hour after it (124) are the ones that differ.
//
// The other models stop at the deadline: check runs such a rollout once
// more without a deadline, with what is left of the work budget, to tell
// how it ends (TestCompletesAfterDeadlineOtherModels), and the pods of
// that run are not judged.
//
// # Drains during a rollout
//
// No PodDisruptionBudget gates a rollout: the controllers scale and
// delete, they do not evict. Budgets gate evictions, and [RulePDBDrain]
// judges a drain of a node holding [Config.DrainPods] of the
// Deployment's pods at each moment of its rollouts, as the eviction API
// decides it (disruptionsAllowed = currentHealthy - desiredHealthy, at
// least 0; pods that are not ready under unhealthyPodEvictionPolicy),
// where it fares worse than at rest. The report's notes say, for each
// Deployment with budgets, that they do not gate its rollout and how few
// ready pods such a drain leaves at the worst moment
// (TestDrainPodsProperties: never more for a larger drain).
//
// # Placement
//
// With Nodes in the input ('kubectl get nodes -o yaml', decoded strictly
// as every kind is: an unknown field is a problem naming it) or
// [Config.Nodes] identical nodes of [Config.NodeAllocatable], each
// rollout is simulated with its pods placed on them. The model comes to
// one count, the places: how many of the Deployment's pods (old and new,
// terminating ones until they are gone) the nodes hold at once; a pod
// beyond them is pending, not ready, until one leaves
// (sim.PodModel.Room). The places are the fewest that these rules leave,
// for the pod of the template as admission makes it (LimitRange
// defaults):
//
//   - Eligible nodes: schedulable (or spec.unschedulable tolerated), every
//     NoSchedule and NoExecute taint tolerated, the nodeSelector and the
//     required node affinity matched.
//   - Resources: on each eligible node, as many pods as its allocatable
//     less the requests of the input's other Pods bound to it
//     (spec.nodeName) holds, by every resource the pod requests (an input
//     Node without the resource holds none) and by pods; one pod per node
//     where it takes a hostPort (none where another pod has the port).
//   - Required pod anti-affinity whose selector selects the template's
//     labels (without matchLabelKeys pod-template-hash): one pod per
//     domain of its topology key that has room and no other selected pod;
//     nodes without the key are not limited.
//   - A topology spread constraint with whenUnsatisfiable DoNotSchedule
//     that selects the template's labels: over its domains (the key's
//     values on the nodes its nodeAffinityPolicy admits, tainted ones
//     counted unless nodeTaintsPolicy is Honor), each holds at most
//     maxSkew more than the emptiest (0 when minDomains exceeds the
//     domains): the sum over domains of min(room, emptiest + maxSkew).
//   - A PersistentVolumeClaim of the input that the template mounts:
//     ReadWriteOncePod, one pod at all; ReadWriteOnce (and not also a
//     many-node mode), only the node holding it: where the input's pods of
//     the Deployment run, else the first node by name with room. When
//     another eligible node has room, the scheduler, which does not know
//     where the claim is attached and whose default spreading prefers the
//     nodes without the Deployment's pods, sends a new pod there, where
//     it waits on Multi-Attach: then a new pod has a place only where an
//     old one left (the places are at most the replicas). When the
//     input's pods of the Deployment run on two nodes already, the claim
//     is not held by one, and the rule leaves it out.
//
// A rollout that ends with pods pending for good breaks [RuleNeverFinish],
// its message naming the rule that decides the places and what to change
// (maxSurge 0 and maxUnavailable ≥1, or Recreate), its location the
// strategy field and its related places the template's field, the claim
// and the input's nodes; one that finishes after new pods waited pending
// warns of [RulePlacementWaits]. The model leaves out what it cannot
// know: scheduler scoring but the claim case above (it counts places, not
// which node a pod lands on), preemption, the cluster autoscaler adding
// nodes, volume topology and attach limits, pod affinity, anti-affinity
// of other pods against these, and, with Config.Nodes (which have only
// hostname labels and no taints), every constraint on another topology
// key: their nodes match every nodeSelector and node affinity. A claim
// the input lacks is left out, with a note. With more than one replica on
// a ReadWriteOnce claim, new pods on another node in fact wait until no
// old pod uses the claim; the model lets them run as old pods leave, so
// it can only under-report. Terminating pods hold their places until they
// are gone, though a spread constraint no longer counts them: the model
// may report a wait that a cluster spares, but not a rollout that never
// finishes (a stuck run has no terminating pod left).
//
// The places are checked against the v1.36.3 scheduler's filter plugins
// (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit,
// NodePorts, InterPodAffinity, PodTopologySpread, VolumeRestrictions) on
// random small clusters by TestSurgePlaceAgainstScheduler in
// internal/upstream/placediff: never-finishes for maxSurge 1 and
// maxUnavailable 0 exactly when the filters, placing the pods one at a
// time, find no place for replicas + 1.
package check
