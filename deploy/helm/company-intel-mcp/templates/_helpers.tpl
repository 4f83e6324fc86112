{{- define "mcp.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "mcp.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "mcp.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "mcp.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "mcp.selectorLabels" -}}
app.kubernetes.io/name: {{ include "mcp.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "mcp.labels" -}}
{{ include "mcp.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "mcp.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "mcp.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* A secretKeyRef from {name, key}, both required once the reference is given. */}}
{{- define "mcp.secretRef" -}}
valueFrom:
  secretKeyRef:
    name: {{ required (printf "%s.name: the Secret's name" .what) .ref.name | quote }}
    key: {{ required (printf "%s.key: the key in Secret %s" .what .ref.name) .ref.key | quote }}
{{- end -}}

{{/*
mcp.validate refuses values that would start an insecure or broken service,
with a plain message saying what to set. Included by the Deployment.
*/}}
{{- define "mcp.validate" -}}
{{- $v := .Values -}}
{{- if and $v.publicURL (not $v.oauth.issuers) -}}
{{- fail (printf "publicURL is %s but oauth.issuers is empty: anyone reaching the service would act as the server's own credentials. Set oauth.issuers to your identity provider's issuer URL." $v.publicURL) -}}
{{- end -}}
{{- if not $v.oauth.issuers -}}
{{- fail "oauth.issuers is empty: the service listens on the pod network, so every request needs a token from an issuer. Set oauth.issuers (and publicURL)." -}}
{{- end -}}
{{- if not $v.publicURL -}}
{{- fail "publicURL is empty: set the https URL clients use for /mcp (every token's audience), e.g. https://mcp.example.com/mcp." -}}
{{- end -}}
{{- if not (regexMatch "^(https://|http://(127\\.[0-9.]+|localhost|\\[::1\\])(:[0-9]+)?/)" $v.publicURL) -}}
{{- fail (printf "publicURL %s is plain http: tokens would cross the network in clear. Use https (http only on loopback, for a port-forward)." $v.publicURL) -}}
{{- end -}}
{{- $mutations := lower (toString $v.mutations.allow) -}}
{{- if and (not (has $mutations (list "" "false" "0" "no" "none" "off"))) (not $v.scopes.write) -}}
{{- fail (printf "mutations.allow is %q but scopes.write is empty: every signed-in user could write. Set scopes.write (e.g. companies:write) or leave mutations.allow empty." (toString $v.mutations.allow)) -}}
{{- end -}}
{{- if regexMatch "^[a-z]+://[^/@]*:[^/@]*@" (toString $v.redis.url) -}}
{{- fail "redis.url carries a password in plain values, which end up in the release's history and the pod spec. Put the whole URL in a Secret and set redis.existingSecret.name and .key instead." -}}
{{- end -}}
{{- if and $v.redis.url $v.redis.existingSecret -}}
{{- fail "set redis.url or redis.existingSecret, not both." -}}
{{- end -}}
{{- if $v.embedded.enabled -}}
{{- if gt (int $v.replicaCount) 1 -}}
{{- fail "embedded.enabled: each pod would run its own demo backend and issuer, so replicas would disagree. Use replicaCount: 1, or a real AppSync endpoint (appsync.endpoint) with embedded.enabled: false." -}}
{{- end -}}
{{- if $v.appsync.endpoint -}}
{{- fail "set appsync.endpoint or embedded.enabled, not both." -}}
{{- end -}}
{{- else if not $v.appsync.endpoint -}}
{{- fail "appsync.endpoint is empty: set your AppSync GraphQL URL (https://<id>.appsync-api.<region>.amazonaws.com/graphql), or embedded.enabled: true with the demo image." -}}
{{- end -}}
{{- end -}}
