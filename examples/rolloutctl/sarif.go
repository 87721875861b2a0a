package main

import (
	"fmt"
	"hash/fnv"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// SARIF 2.1.0, as GitHub code scanning and other SARIF viewers read it:
// one run, the rules as the tool's rule descriptors, one result per
// violation at the line of the field to change, with the other objects
// involved (a quota, a budget) as related locations. The test holds the
// output to the OASIS schema (testdata/sarif-schema-2.1.0.json).

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	Properties  map[string]any    `json:"properties"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      sarifText       `json:"fullDescription"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties"`
}

type sarifLocation struct {
	ID               *int           `json:"id,omitempty"`
	PhysicalLocation sarifPhysical  `json:"physicalLocation"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
	Message          *sarifText     `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifLevels maps severities to SARIF levels.
var sarifLevels = map[string]string{check.SeverityError: "error", check.SeverityWarning: "warning", check.SeverityLimit: "note"}

// writeSARIF writes out as a SARIF log.
func writeSARIF(w io.Writer, out check.Report) error {
	driver := sarifDriver{Name: "rolloutctl", Version: version(), InformationURI: "https://github.com/rolloutmath/rolloutmath"}
	index := map[string]int{}
	for i, r := range check.Rules() {
		index[r.ID] = i
		driver.Rules = append(driver.Rules, sarifRule{ID: r.ID, Name: r.Name, ShortDescription: sarifText{r.Short},
			FullDescription: sarifText{r.Full}, DefaultConfiguration: sarifRuleConfig{sarifLevels[r.Severity]}})
	}
	inv := sarifInvocation{ExecutionSuccessful: !out.BadInput()}
	for _, n := range out.Notes {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: "note", Message: sarifText{n}})
	}
	run := sarifRun{Tool: sarifTool{driver}, Invocations: []sarifInvocation{inv}, Results: []sarifResult{}, Properties: map[string]any{"podModel": out.PodModel}}
	for _, v := range out.Findings {
		msg := fmt.Sprintf("%s replicas=%d at +%s: %s", v.Deployment, v.Replicas, words.Duration(time.Duration(v.At*float64(time.Second))), v.Message)
		if v.Deployment == "" {
			msg = v.Message
		}
		res := sarifResult{RuleID: v.Rule, RuleIndex: index[v.Rule], Level: sarifLevels[v.Severity],
			Message:             sarifText{msg},
			Locations:           []sarifLocation{sarifPlace(v.Location, nil)},
			PartialFingerprints: map[string]string{"rolloutctl/v1": fingerprint(v.Rule, v.Location.Object, v.Location.Field)},
			Properties: map[string]any{"deployment": v.Deployment, "replicas": v.Replicas, "atSeconds": v.At, "cause": v.Cause,
				"field": v.Location.Field, "fieldWritten": v.Location.Written},
		}
		for i, p := range v.Related {
			id := i + 1
			loc := sarifPlace(p, &id)
			loc.Message = &sarifText{p.Object + ": " + p.Field}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		run.Results = append(run.Results, res)
	}
	return encodeJSON(w, sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}, nil)
}

// sarifPlace is a place as a SARIF location: the file as a URI reference
// relative to where the command ran (code scanning resolves it against the
// repository), the line, and the object as a logical location.
func sarifPlace(p check.Location, id *int) sarifLocation {
	loc := sarifLocation{ID: id, PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: fileURI(p.File)}, Region: sarifRegion{StartLine: max(p.Line, 1)}}}
	if p.Object != "" {
		loc.LogicalLocations = []sarifLogical{{FullyQualifiedName: p.Object, Kind: "object"}}
	}
	return loc
}

// fileURI turns a file name into a URI reference: a relative path with
// forward slashes, a file: URI for an absolute one, "stdin" for standard
// input.
func fileURI(name string) string {
	if name == manifest.Stdin || name == "" {
		return "stdin"
	}
	slash := filepath.ToSlash(name)
	if filepath.IsAbs(name) {
		return (&url.URL{Scheme: "file", Path: slash}).String()
	}
	return (&url.URL{Path: strings.TrimPrefix(slash, "./")}).String()
}

// fingerprint identifies a finding across edits that move its line.
func fingerprint(parts ...string) string {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%016x", h.Sum64())
}
