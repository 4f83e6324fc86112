package mutation

//go:generate go tool genqlient genqlient.yaml
