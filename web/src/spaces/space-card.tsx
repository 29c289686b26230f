import type { Space } from '../api/types.ts';
import { Link } from '../app/link.tsx';
import { paths } from '../app/router.ts';
import { StarButton } from './favorites.tsx';
import { emojiOf } from './home-screen.tsx';
import './home.css';

/** A space on the home screen: its emoji and title (a link to it), what it is, and its star. */
export function SpaceCard(props: { space: Space; starred: boolean }) {
  const { space } = props;
  return (
    <li class="card space-card">
      <div class="space-card-head">
        <Link href={paths.space(space.organization, space.id)}>
          <span aria-hidden="true" class="space-emoji">{emojiOf(space.emoji)}</span> {space.title || 'Untitled space'}
        </Link>
        <StarButton space={space} starred={props.starred} />
      </div>
      <span class="meta">{space.visibility}{space.changeRequestsOpen > 0 ? ` · ${space.changeRequestsOpen} open change request${space.changeRequestsOpen === 1 ? '' : 's'}` : ''}</span>
    </li>
  );
}
