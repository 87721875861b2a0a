// Package browsertest drives the rollout playground (examples/playground)
// in a headless Chromium, as a person would: it is a module of its own so
// that the main module never requires chromedp.
package browsertest
