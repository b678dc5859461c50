{{/* The settings the chart generates for record-writer.yaml (docs/configuration.md#record-writer-writer). */}}
{{- define "record-writer.config" -}}
writer:
  topics:
    {{- include "cairn.topicSettings" . | nindent 4 }}
{{- end -}}
