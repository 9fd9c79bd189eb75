{{/* The chart's name, or nameOverride. */}}
{{- define "baton.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Names of the release's objects: fullnameOverride, or <release>-baton (just <release> when it already says baton). */}}
{{- define "baton.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "baton.selectorLabels" -}}
app.kubernetes.io/name: {{ include "baton.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "baton.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "baton.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "baton.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{- define "baton.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "baton.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret holding SESSION_SECRET and the connection strings: the operator's, or the chart's own. */}}
{{- define "baton.secretName" -}}
{{- if .Values.existingSecret }}
{{- .Values.existingSecret }}
{{- else }}
{{- include "baton.fullname" . }}
{{- end }}
{{- end }}

{{/* The session secret of the chart's own Secret: the value given, else the one already installed, else a new random one. */}}
{{- define "baton.sessionSecret" -}}
{{- if .Values.secrets.sessionSecret }}
{{- .Values.secrets.sessionSecret }}
{{- else }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "baton.fullname" .) }}
{{- if and $existing $existing.data (index $existing.data "SESSION_SECRET") }}
{{- index $existing.data "SESSION_SECRET" | b64dec }}
{{- else }}
{{- randAlphaNum 48 }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Environment shared by the Deployment and the migration Job. SERVICE_TENANT_DB_URLS is in the
chart's own Secret only when secrets.tenantDatabaseUrls lists servers (the variable is left out
otherwise); an existing Secret may or may not hold it, so it is read as optional there.
*/}}
{{- define "baton.env" -}}
- name: SERVICE_MODE
  value: hosted
- name: NODE_ENV
  value: production
- name: APP_URL
  value: {{ .Values.appUrl | quote }}
- name: SERVICE_HOST
  value: "0.0.0.0"
- name: SERVICE_PORT
  value: "7878"
- name: SERVICE_DATA_DIR
  value: /data
- name: SERVICE_DRAIN_SECONDS
  value: {{ .Values.drainSeconds | quote }}
- name: SESSION_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "baton.secretName" . }}
      key: {{ .Values.existingSecretKeys.sessionSecret }}
- name: SERVICE_DB_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "baton.secretName" . }}
      key: {{ .Values.existingSecretKeys.databaseUrl }}
{{- if or .Values.existingSecret .Values.secrets.tenantDatabaseUrls }}
- name: SERVICE_TENANT_DB_URLS
  valueFrom:
    secretKeyRef:
      name: {{ include "baton.secretName" . }}
      key: {{ .Values.existingSecretKeys.tenantDatabaseUrls }}
      {{- if .Values.existingSecret }}
      optional: true
      {{- end }}
{{- end }}
- name: SERVICE_CACHE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "baton.secretName" . }}
      key: {{ .Values.existingSecretKeys.cacheUrl }}
- name: SERVICE_METRICS_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "baton.secretName" . }}
      key: {{ .Values.existingSecretKeys.metricsToken }}
      optional: true
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end }}
