// Build ids are accepted only if they are valid semantic versions (semver.org 2.0.0).
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isSemver(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 256 && SEMVER.test(value);
}

/** True when both are valid builds and they differ. */
export function buildsDiffer(client: string | null, server: string | null): boolean {
  return isSemver(client) && isSemver(server) && client !== server;
}
