package sim

// WithoutFastForward returns cfg with fast-forward turned off, so that
// tests can compare a run computed sync by sync with one fast-forwarded.
func WithoutFastForward(cfg Config) Config {
	cfg.noFastForward = true
	return cfg
}
