import { mentionsAsText } from './mentions.ts';

/**
 * A comment's body: its Markdown shown as text, paragraph by paragraph (line breaks kept). Nothing in it is
 * interpreted as HTML, so what someone writes in a comment can never run or restyle the workspace.
 */
export function CommentBody({ markdown }: { markdown?: string }) {
  // A mention (`[Name](users/<id> "mention")`) reads as @Name.
  const paragraphs = mentionsAsText(markdown ?? '').split(/\n{2,}/).map((text) => text.trim()).filter(Boolean);
  return (
    <div class="comment-body">
      {paragraphs.map((text, index) => (
        <p key={index}>{text}</p>
      ))}
    </div>
  );
}

export function When({ at }: { at: string }) {
  return <time dateTime={at}>{new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</time>;
}
