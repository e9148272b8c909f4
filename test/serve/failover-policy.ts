// The policy HashiCorp's prepared failover token carries (a batch token's `dr-secondary-promotion`
// policy): update on promote and update-primary, nothing else. Shared by the client tests.
export const FAILOVER_POLICY = `path "sys/replication/dr/secondary/promote" {
  capabilities = [ "update" ]
}
path "sys/replication/dr/secondary/update-primary" {
  capabilities = [ "update" ]
}`;
