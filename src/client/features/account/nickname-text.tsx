/** A nickname cut at 140 px with an ellipsis; the full text stays in the tooltip. */
export function NicknameText({ nickname, className }: { nickname: string; className?: string }) {
  return (
    <span className={className ? `nick-text ${className}` : 'nick-text'} title={nickname}>
      {nickname}
    </span>
  );
}
