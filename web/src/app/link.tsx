import type { ComponentChildren } from 'preact';
import { followLink } from './router.ts';

export function Link(props: { href: string; class?: string; children: ComponentChildren; 'aria-current'?: 'page' | undefined }) {
  return (
    <a href={props.href} class={props.class} aria-current={props['aria-current']} onClick={(event) => followLink(event, props.href)}>
      {props.children}
    </a>
  );
}
