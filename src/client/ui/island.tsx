import type { ComponentType } from 'react';
import type { IslandName } from '../islands';

/**
 * Server side of an island: the component's SSR output wrapped in a marker that main.ts
 * hydrates with the same props. Props must be JSON. `members`: the island shows nothing to
 * visitors, so a visitor's page loads its code only once they log in (main.ts). `inert`: the
 * island sits behind the splash the server rendered open (ui/use-modal.ts takes it over).
 */
export function Island<P extends object>({
  name,
  component: C,
  props,
  members,
  inert,
}: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
  members?: boolean;
  inert?: boolean;
}) {
  return (
    <div className="island" data-island={name} data-props={JSON.stringify(props)} data-members={members ? '1' : undefined} {...behindModal(inert)}>
      <C {...props} />
    </div>
  );
}

/**
 * Attributes of a part of the page the server renders behind an open modal (the age splash):
 * inert before any script runs; the modal's script takes it over (ui/use-modal.ts).
 */
export function behindModal(inert: boolean | undefined) {
  return inert ? { inert: true, 'data-modal-inert': '' } : {};
}
