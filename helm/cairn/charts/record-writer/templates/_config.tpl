{{/* The settings the chart generates for record-writer.yaml (docs/configuration.md#record-writer-writer). */}}
{{- define "record-writer.config" -}}
writer:
  # One Lease per release: two releases in one namespace elect their leaders apart. Release
  # "cairn" keeps the service's default name (cairn-record-writer).
  leader-election:
    lease-name: {{ include "cairn.fullname" . | quote }}
  topics:
    {{- include "cairn.topicSettings" . | nindent 4 }}
{{- end -}}
