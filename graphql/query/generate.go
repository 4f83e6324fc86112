package query

//go:generate go tool genqlient genqlient.yaml
