import type { ListProps, TileGallery, TileVideo } from '../components/shows/list-data';
import { ListFrame, useList } from '../components/shows/list-view';
import { GalleryGrid, VideoGrid } from '../components/shows/media-tiles';

/** Videos or galleries in a list, with the same infinite scroll and pagination as ShowList. */
export default function MediaList(props: ListProps) {
  const list = useList(props);
  const items = list.chunks.flatMap((c) => c.items);
  return (
    <ListFrame list={list} props={props} count={items.length}>
      {props.source.kind === 'videos' ? <VideoGrid videos={items as TileVideo[]} /> : <GalleryGrid galleries={items as TileGallery[]} />}
    </ListFrame>
  );
}
