package placediff

import "encoding/json"

// jsonOf encodes v as the API server would write it.
func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }
