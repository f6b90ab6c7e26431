package records

import "reflect"

// redactStrings applies redact to every string reachable from v (a pointer
// to a struct) except in fields tagged redact:"-". Walking by reflection
// means a field added later is redacted without anyone remembering to.
func redactStrings(v any, redact func([]byte) []byte) {
	walkRedact(reflect.ValueOf(v), redact)
}

func walkRedact(v reflect.Value, redact func([]byte) []byte) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkRedact(v.Elem(), redact)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || f.Tag.Get("redact") == "-" {
				continue
			}
			walkRedact(v.Field(i), redact)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkRedact(v.Index(i), redact)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			walkRedact(e, redact)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		if v.CanSet() && v.Len() > 0 {
			v.SetString(string(redact([]byte(v.String()))))
		}
	}
}
