import type { Template } from './types.ts';

const overview = `Welcome! This space documents the product: what it does, how to get it running, and how to make the
most of it. Start with the [Quickstart](quickstart.md) if you want to try it right away.

{% hint style="info" %}
**New here?** Read this page, then follow the Quickstart: you will have a working setup in about ten minutes.
{% endhint %}

## What it does

Describe the problem the product solves in two or three sentences, and for whom. Lead with the outcome a
reader cares about, not with the feature list.

## Key features

* **Fast setup**: install, configure one file, and you are running.
* **Secure by default**: every option has a safe default; nothing is exposed until you decide it should be.
* **Works with your tools**: integrations for the services your team already uses.

## Where to go next

| If you want to… | Read |
| --- | --- |
| Try the product | [Quickstart](quickstart.md) |
| Install it for your team | [Installation](installation.md) |
| Change how it behaves | [Configuration](../guides/configuration.md) |
| Fix a problem | [Troubleshooting](../guides/troubleshooting.md) |
`;

const quickstart = `Get from nothing to a working setup in three steps.

## 1. Install

{% tabs %}
{% tab title="macOS" %}
\`\`\`bash
brew install example
\`\`\`
{% endtab %}

{% tab title="Linux" %}
\`\`\`bash
curl -fsSL https://example.com/install.sh | sh
\`\`\`
{% endtab %}

{% tab title="Windows" %}
\`\`\`powershell
winget install Example.Example
\`\`\`
{% endtab %}
{% endtabs %}

## 2. Configure

Create a configuration file in your project:

{% code title="example.yaml" %}
\`\`\`yaml
name: my-project
region: eu-west
features:
  - search
  - analytics
\`\`\`
{% endcode %}

## 3. Run

\`\`\`bash
example start
\`\`\`

You should see \`Ready on http://localhost:3000\`.

{% hint style="success" %}
That's it: your setup is running. Continue with the [Configuration](../guides/configuration.md) guide.
{% endhint %}
`;

const installation = `This page covers installing the product for a team or in production.

## Requirements

* A supported operating system: macOS 13+, a recent Linux distribution, or Windows 11.
* 2 GB of memory and 1 GB of disk space.
* Network access to the services listed in [Configuration](../guides/configuration.md).

## Install for a team

1. Install the product on a shared machine or server.
2. Create one account per person, or connect your single sign-on provider.
3. Share the address of the server with your team.

{% hint style="warning" %}
Keep the server's configuration file out of version control: it holds credentials.
{% endhint %}

## Upgrade

Upgrades keep your data. Read the release notes, back up, then install the new version the same way you
installed the current one.
`;

const configuration = `Every option can be set in the configuration file or as an environment variable.

| Option | Environment variable | Default | Description |
| --- | --- | --- | --- |
| \`name\` | \`EXAMPLE_NAME\` | the folder name | The name shown in the interface. |
| \`region\` | \`EXAMPLE_REGION\` | \`us-east\` | Where data is stored. |
| \`port\` | \`EXAMPLE_PORT\` | \`3000\` | The port the server listens on. |
| \`log_level\` | \`EXAMPLE_LOG_LEVEL\` | \`info\` | One of \`error\`, \`warn\`, \`info\`, \`debug\`. |

## Example

{% code title="example.yaml" %}
\`\`\`yaml
name: docs-team
region: eu-west
port: 8080
log_level: warn
\`\`\`
{% endcode %}

{% hint style="info" %}
Environment variables win over the file, so you can keep one file for every environment.
{% endhint %}
`;

const troubleshooting = `Solutions to the problems people run into most often.

<details>

<summary>The server does not start</summary>

Check that nothing else listens on the configured port (\`lsof -i :3000\`), and read the last lines of the log.

</details>

<details>

<summary>I cannot sign in</summary>

Make sure your account exists and is enabled. If your organization uses single sign-on, sign in through
your identity provider.

</details>

<details>

<summary>Something else</summary>

Collect the version (\`example --version\`) and the log, and contact support.

</details>
`;

const faq = `## Is there a free plan?

Describe your pricing, or link to it.

## Where is my data stored?

Say where, and how it is protected.

## How do I get help?

Tell readers where to ask questions and how quickly they can expect an answer.
`;

const changelog = `All notable changes, newest first. Each release lists what was added, changed and fixed, so
readers can tell at a glance whether an upgrade concerns them.

{% hint style="info" %}
Write entries for readers, not for the team: say what they can now do, or what behaves differently.
{% endhint %}

## 1.0.0

### Added

* Single sign-on with any SAML 2.0 identity provider.
* An export of all your data as JSON.

### Changed

* The default region is now \`eu-west\`.

### Fixed

* Searching for words with accents finds them again.

## 0.9.0

### Added

* First public beta.
`;

export const productDocs: Template = {
  id: 'product-docs',
  title: 'Product documentation',
  description: 'Docs for a product: overview, quickstart, installation, guides, FAQ and changelog.',
  slots: {
    website: { kinds: ['url'], description: 'The product website: added as a link page under Resources.' },
    support: { kinds: ['url', 'page', 'space'], description: 'Where readers get help: added as a link page under Resources.' },
    changelog: { kinds: ['url', 'page', 'space'], description: 'An existing changelog: a link page takes the place of the starter Changelog page.' },
  },
  pages: (refs) => [
    {
      type: 'group',
      title: 'Getting started',
      pages: [
        { type: 'document', title: 'Overview', description: 'What the product does and where to start.', icon: 'house', markdown: overview },
        { type: 'document', title: 'Quickstart', description: 'From nothing to a working setup in three steps.', icon: 'bolt', markdown: quickstart },
        { type: 'document', title: 'Installation', description: 'Install for a team or in production.', markdown: installation },
      ],
    },
    {
      type: 'group',
      title: 'Guides',
      pages: [
        { type: 'document', title: 'Configuration', description: 'Every option, with its default.', icon: 'gear', markdown: configuration },
        { type: 'document', title: 'Troubleshooting', description: 'Solutions to common problems.', markdown: troubleshooting },
      ],
    },
    {
      type: 'group',
      title: 'Resources',
      pages: [
        { type: 'document', title: 'FAQ', description: 'Frequently asked questions.', markdown: faq },
        refs.changelog
          ? { type: 'link', title: 'Changelog', target: refs.changelog }
          : { type: 'document', title: 'Changelog', description: 'What changed in each release.', markdown: changelog },
        ...(refs.website ? [{ type: 'link' as const, title: 'Website', target: refs.website }] : []),
        ...(refs.support ? [{ type: 'link' as const, title: 'Support', target: refs.support }] : []),
      ],
    },
  ],
};
