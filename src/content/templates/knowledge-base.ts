import type { Template } from './types.ts';

const welcome = `This knowledge base is where the team writes down how things work, so nobody has to ask twice.

{% hint style="info" %}
**Can't find something?** Search first. If it is not written down yet, ask in the team channel, then add
the answer here for the next person.
{% endhint %}

## How it is organized

* **How-to guides**: step-by-step instructions for common tasks.
* **Processes**: how the team works together, and who decides what.
* **Policies**: the rules everyone follows.

## Writing a page

1. Give it a title that says what the reader will get: "Request a laptop", not "Laptops".
2. Start with the answer, then the details.
3. Name an owner who keeps the page up to date.
`;

const onboarding = `Everything a new team member does in their first week. Copy this list into your own notes and tick items
off as you go.

## Day one

- [ ] Sign in to your accounts (e-mail, chat, this knowledge base).
- [ ] Set up two-factor authentication everywhere.
- [ ] Meet your manager and your onboarding buddy.

## First week

- [ ] Read the [Code of conduct](../policies/code-of-conduct.md).
- [ ] Set up your development environment.
- [ ] Ship a small change and get it reviewed.
- [ ] Join the team's regular meetings.
`;

const requestAccess = `Access to tools and systems is granted on request, with the approval of your manager.

1. Find the tool's owner in the table below.
2. Ask in the access-requests channel, saying which tool, which level of access, and why.
3. Your manager approves in the thread; the owner grants access within one working day.

| Tool | Owner | Approval needed |
| --- | --- | --- |
| Source code | Engineering lead | Manager |
| Production | Operations lead | Manager and operations lead |
| Finance tools | Finance lead | Finance lead |

{% hint style="warning" %}
Never share your credentials, even with a colleague: ask for access for them instead.
{% endhint %}
`;

const incidents = `An incident is anything that stops customers from doing their work. When in doubt, declare one: it costs
little, and waiting costs a lot.

## Roles

* **Incident lead**: coordinates, decides, and keeps everyone informed.
* **Responders**: investigate and fix.
* **Communicator**: updates customers and the status page.

## Steps

1. Declare the incident in the incidents channel with a one-line summary.
2. Name the incident lead.
3. Stabilize first, find the root cause later.
4. Post an update at least every 30 minutes.
5. Write a blameless review within five working days.

<details>

<summary>Severity levels</summary>

| Level | Example | Response |
| --- | --- | --- |
| SEV1 | Everything is down. | Everyone available, now. |
| SEV2 | A major feature is broken. | On-call team, now. |
| SEV3 | A minor problem with a workaround. | Next working day. |

</details>
`;

const conduct = `We want a workplace where everyone can do their best work.

* Be respectful and kind, in person and in writing.
* Assume good intent, and ask when something is unclear.
* Disagree about ideas, never about people.
* Harassment and discrimination are not tolerated, whoever is involved.

## Reporting a problem

Talk to your manager, or to anyone in the people team. Reports are handled confidentially, and nobody is
penalized for reporting in good faith.
`;

const timeOff = `Rest matters. Take your time off, and plan it early.

| Kind | How much | How to request |
| --- | --- | --- |
| Vacation | 25 days a year | Two weeks ahead, in the HR tool |
| Sick leave | As needed | Tell your manager the same morning |
| Parental leave | See your contract | Talk to the people team |

{% hint style="info" %}
Before you leave, set an out-of-office message and hand over anything urgent.
{% endhint %}
`;

export const knowledgeBase: Template = {
  id: 'knowledge-base',
  title: 'Knowledge base',
  description: 'A team knowledge base: how-to guides, processes and policies.',
  slots: {
    handbook: { kinds: ['url', 'space', 'page'], description: 'An existing handbook: added as a link page under Policies.' },
    helpdesk: { kinds: ['url'], description: 'Where to ask for help: added as a link page at the end.' },
  },
  pages: (refs) => [
    { type: 'document', title: 'Welcome', description: 'What this knowledge base holds and how to add to it.', icon: 'book-open', markdown: welcome },
    {
      type: 'group',
      title: 'How-to guides',
      pages: [
        { type: 'document', title: 'Onboarding checklist', description: 'Your first week, step by step.', markdown: onboarding },
        { type: 'document', title: 'Request access to a tool', description: 'Who grants access, and how.', markdown: requestAccess },
      ],
    },
    {
      type: 'group',
      title: 'Processes',
      pages: [{ type: 'document', title: 'Incident response', description: 'What to do when something breaks.', markdown: incidents }],
    },
    {
      type: 'group',
      title: 'Policies',
      pages: [
        { type: 'document', title: 'Code of conduct', description: 'How we treat each other.', markdown: conduct },
        { type: 'document', title: 'Time off', description: 'Vacation, sick leave and parental leave.', markdown: timeOff },
        ...(refs.handbook ? [{ type: 'link' as const, title: 'Company handbook', target: refs.handbook }] : []),
      ],
    },
    ...(refs.helpdesk ? [{ type: 'link' as const, title: 'Helpdesk', target: refs.helpdesk }] : []),
  ],
};
