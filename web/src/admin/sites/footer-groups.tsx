/** A footer column: a title over links (the client's CustomizationFooterGroup, URL links). */
export interface FooterGroup {
  title: string;
  links: Array<{ title: string; to: { kind: 'url'; url: string } }>;
}

/**
 * The footer's link groups, edited in the customization form: each group a title and its links (text and
 * address), added and removed in place. Every edit hands the whole new list to `onChange`, so the preview
 * beside the form shows it before it is saved.
 */
export function FooterGroupsFields(props: { groups: FooterGroup[]; onChange: (groups: FooterGroup[]) => void }) {
  const groups = props.groups;
  const edit = (work: (draft: FooterGroup[]) => void) => {
    const draft = structuredClone(groups);
    work(draft);
    props.onChange(draft);
  };
  return (
    <fieldset>
      <legend>Footer link groups</legend>
      {groups.length === 0 && <p class="meta">No footer links yet: add a group (a column of links under a title).</p>}
      {groups.map((group, index) => (
        <div key={index} class="footer-group" role="group" aria-label={`Footer group ${index + 1}: ${group.title}`}>
          <label>Group title <input name={`footer-group-${index}`} value={group.title} maxLength={100} onInput={(event) => { const value = event.currentTarget.value; edit((d) => { d[index].title = value; }); }} /></label>
          {group.links.map((link, linkIndex) => (
            <div key={linkIndex} class="pair">
              <label>Link text <input value={link.title} maxLength={100} onInput={(event) => { const value = event.currentTarget.value; edit((d) => { d[index].links[linkIndex].title = value; }); }} /></label>
              <label>Link address <input type="url" value={link.to.url} onInput={(event) => { const value = event.currentTarget.value; edit((d) => { d[index].links[linkIndex].to = { kind: 'url', url: value }; }); }} /></label>
              <button type="button" class="link-button" onClick={() => edit((d) => { d[index].links.splice(linkIndex, 1); })}>Remove<span class="visually-hidden"> footer link {link.title}</span></button>
            </div>
          ))}
          <div class="row">
            <button type="button" class="button" onClick={() => edit((d) => { d[index].links.push({ title: 'Status', to: { kind: 'url', url: 'https://example.com/status' } }); })}>Add a link<span class="visually-hidden"> to {group.title}</span></button>
            <button type="button" class="link-button" onClick={() => edit((d) => { d.splice(index, 1); })}>Remove group<span class="visually-hidden"> {group.title}</span></button>
          </div>
        </div>
      ))}
      <button type="button" class="button" onClick={() => edit((d) => { d.push({ title: 'Resources', links: [{ title: 'Status', to: { kind: 'url', url: 'https://example.com/status' } }] }); })}>Add a footer group</button>
    </fieldset>
  );
}
