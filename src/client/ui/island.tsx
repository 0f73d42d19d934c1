import type { ComponentType } from 'react';
import type { IslandName } from '../islands';

/**
 * Server side of an island: the component's SSR output wrapped in a marker that main.ts
 * hydrates with the same props. Props must be JSON.
 */
export function Island<P extends object>({ name, component: C, props }: { name: IslandName; component: ComponentType<P>; props: P }) {
  return (
    <div className="island" data-island={name} data-props={JSON.stringify(props)}>
      <C {...props} />
    </div>
  );
}
