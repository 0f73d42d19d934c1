import { NICKNAME_MAX_DISPLAY_PX } from '../../../shared/constants';

/** A nickname cut at 140 px with an ellipsis; the full text stays in the tooltip. */
export function NicknameText({ nickname, className }: { nickname: string; className?: string }) {
  return (
    <span className={className ? `nick-text ${className}` : 'nick-text'} style={{ maxWidth: NICKNAME_MAX_DISPLAY_PX }} title={nickname}>
      {nickname}
    </span>
  );
}
