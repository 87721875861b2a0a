module github.com/rolloutmath/rolloutmath/examples/playground/browsertest

go 1.26

require (
	github.com/chromedp/chromedp v0.15.0
	github.com/google/go-cmp v0.7.0
	github.com/rolloutmath/rolloutmath v0.0.0
)

require (
	github.com/chromedp/cdproto v0.0.0-20260320225252-cf654f46fc63 // indirect
	github.com/chromedp/sysutil v1.1.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260214004413-d219187c3433 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/pool v0.2.1 // indirect
	github.com/gobwas/ws v1.4.0 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	go.yaml.in/yaml/v3 v3.0.3 // indirect
	golang.org/x/sys v0.42.0 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)

replace github.com/rolloutmath/rolloutmath => ../../..
