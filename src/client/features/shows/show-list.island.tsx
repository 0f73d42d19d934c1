import { useMemo } from 'react';
import { ShowGrid } from './show-tile';
import type { ListProps, TileShow } from '../../../shared/show-lists';
import { ListFrame } from './list-frame';
import { useList } from './list-view';

export type { ListProps as ShowListProps } from '../../../shared/show-lists';

/**
 * A list of shows with infinite scroll: near the end the next page is fetched and appended (the
 * URL's page follows with replaceState); pagination links and filter chips replace the list
 * (pushState, so Back works). Page links stay real links for crawlers and for browsing without
 * script. Tiles follow the live lobby.
 */
export default function ShowList(props: ListProps) {
  const list = useList(props);
  const { shows, pages } = useMemo(() => {
    const flat = list.chunks.flatMap((c) => c.items.map((item) => ({ item: item as TileShow, page: c.page })));
    return { shows: flat.map((f) => f.item), pages: flat.map((f) => f.page) };
  }, [list.chunks]);
  return (
    <ListFrame list={list} props={props} count={shows.length}>
      <ShowGrid shows={shows} links={props.links} pages={pages} />
    </ListFrame>
  );
}
