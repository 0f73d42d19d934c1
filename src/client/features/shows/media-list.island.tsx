import type { ListProps, TileGallery, TileVideo } from '../../../shared/show-lists';
import { ListFrame } from './list-frame';
import { useList } from './list-view';
import { GalleryGrid, VideoGrid } from './media-tiles';

/** Videos or galleries in a list, with the same infinite scroll and pagination as ShowList. */
export default function MediaList(props: ListProps) {
  const list = useList(props);
  const items = list.chunks.flatMap((c) => c.items);
  return (
    <ListFrame list={list} props={props} count={items.length}>
      {props.source.kind === 'videos' ? <VideoGrid videos={items as TileVideo[]} ctx={props.store} /> : <GalleryGrid galleries={items as TileGallery[]} ctx={props.store} />}
    </ListFrame>
  );
}
