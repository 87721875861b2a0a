package realsim

import (
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// watcher is one watch: an unbounded queue of events, handed to the
// reader one at a time by its own goroutine, so that a slow reader never
// blocks the server (client-go's fake watch panics past 100 unread
// events). Objects are copied when they are handed over.
type watcher struct {
	s    *server
	res  string
	ns   string
	out  chan watch.Event
	wake chan struct{}
	stop chan struct{}
	once sync.Once

	mu    sync.Mutex
	queue []watch.Event
}

// watch starts a watch of res in ns (all if ""), from resourceVersion from
// ("" or "0": from now).
func (s *server) watch(res, ns, from string) (watch.Interface, error) {
	w := &watcher{s: s, res: res, ns: ns, out: make(chan watch.Event), wake: make(chan struct{}, 1), stop: make(chan struct{})}
	s.mu.Lock()
	if from != "" && from != "0" {
		rv, err := strconv.ParseUint(from, 10, 64)
		if err != nil {
			s.mu.Unlock()
			return nil, apierrors.NewBadRequest("invalid resourceVersion " + strconv.Quote(from))
		}
		l := s.log[res]
		if rv < s.trimmed[res] {
			s.mu.Unlock()
			return nil, apierrors.NewResourceExpired("too old resource version: " + from)
		}
		for _, e := range l {
			if e.rv > rv {
				w.send(e.typ, e.obj)
			}
		}
	}
	s.watchers[res][w] = struct{}{}
	s.mu.Unlock()
	go w.pump()
	return w, nil
}

// send queues an event if it is in the watch's namespace; it never blocks.
func (w *watcher) send(typ watch.EventType, obj runtime.Object) {
	if w.ns != "" {
		m, _ := meta.Accessor(obj)
		if m.GetNamespace() != w.ns {
			return
		}
	}
	w.mu.Lock()
	w.queue = append(w.queue, watch.Event{Type: typ, Object: obj})
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *watcher) pump() {
	defer close(w.out)
	for {
		select {
		case <-w.stop:
			return
		case <-w.wake:
		}
		for {
			w.mu.Lock()
			if len(w.queue) == 0 {
				w.mu.Unlock()
				break
			}
			e := w.queue[0]
			w.queue[0] = watch.Event{}
			w.queue = w.queue[1:]
			w.mu.Unlock()
			e.Object = e.Object.DeepCopyObject()
			select {
			case w.out <- e:
			case <-w.stop:
				return
			}
		}
	}
}

// ResultChan is the channel of the watch's events.
func (w *watcher) ResultChan() <-chan watch.Event { return w.out }

// Stop ends the watch.
func (w *watcher) Stop() {
	w.once.Do(func() {
		w.s.mu.Lock()
		delete(w.s.watchers[w.res], w)
		w.s.mu.Unlock()
		close(w.stop)
	})
}
