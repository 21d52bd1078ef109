/**
 * The built-in pages as Handlebars sources (auto-escaping; `{{{content}}}` in the layout is the page
 * already rendered by its own template). Each may be replaced by `<name>.hbs` in UI_TEMPLATES_DIR; the
 * models each receives are listed in docs/ui.md. No script anywhere: every page works as plain forms.
 */
export const UI_TEMPLATE_NAMES = ['layout', 'messages', 'node', 'flow', 'oauth2-login', 'consent', 'logout', 'message', 'error'] as const;
export type UiTemplateName = (typeof UI_TEMPLATE_NAMES)[number];

/** Templates used as partials by the others (`{{> messages}}`, `{{> node}}`). */
export const UI_PARTIALS: readonly UiTemplateName[] = ['messages', 'node'];

export const BUILTIN_UI_TEMPLATES: Readonly<Record<UiTemplateName, string>> = {
  layout: `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
<title>{{title}} · {{brand.productName}}</title>
<link rel="stylesheet" href="{{brand.stylesheetUrl}}">
</head>
<body>
<a class="skip" href="#main">{{texts.skipToContent}}</a>
<header class="brand">
{{#if brand.logoUrl}}<img class="logo" src="{{brand.logoUrl}}" alt="">{{/if}}
<span class="product">{{brand.productName}}</span>
</header>
<main id="main" class="card">
<h1>{{title}}</h1>
{{{content}}}
</main>
</body>
</html>
`,
  messages: `{{#if messages.length}}<div role="{{#if messagesAlert}}alert{{else}}status{{/if}}"><ul class="messages">{{#each messages}}<li class="message {{type}}" data-message-id="{{id}}">{{text}}</li>{{/each}}</ul></div>{{/if}}`,
  node: `{{#if isHidden}}<input type="hidden" name="{{name}}" value="{{value}}">
{{else if isSubmit}}<button type="submit" name="{{name}}" value="{{value}}"{{#if disabled}} disabled{{/if}}>{{label}}</button>
{{else if isCheckbox}}<div class="field checkbox"><input type="checkbox" id="{{id}}" name="{{name}}" value="true"{{#if checked}} checked{{/if}}{{#if disabled}} disabled{{/if}}{{#if messages.length}} aria-describedby="{{id}}-messages" aria-invalid="true"{{/if}}><label for="{{id}}">{{label}}</label>{{#if messages.length}}<ul class="messages" id="{{id}}-messages">{{#each messages}}<li class="message {{type}}">{{text}}</li>{{/each}}</ul>{{/if}}</div>
{{else}}<div class="field"><label for="{{id}}">{{label}}{{#if required}} <span aria-hidden="true">*</span>{{/if}}</label><input id="{{id}}" type="{{type}}" name="{{name}}"{{#if hasValue}} value="{{value}}"{{/if}}{{#if autocomplete}} autocomplete="{{autocomplete}}"{{/if}}{{#if required}} required{{/if}}{{#if disabled}} disabled{{/if}}{{#if pattern}} pattern="{{pattern}}"{{/if}}{{#if messages.length}} aria-describedby="{{id}}-messages" aria-invalid="true"{{/if}}>{{#if messages.length}}<ul class="messages" id="{{id}}-messages">{{#each messages}}<li class="message {{type}}">{{text}}</li>{{/each}}</ul>{{/if}}</div>
{{/if}}`,
  flow: `{{> messages}}
{{#each forms}}
<form method="post" action="{{action}}" class="flow-form"{{#if heading}} aria-labelledby="{{headingId}}"{{/if}}>
{{#if heading}}<h2 id="{{headingId}}">{{heading}}</h2>{{/if}}
{{#each nodes}}{{> node}}{{/each}}
</form>
{{/each}}
{{#if sessions}}
<section aria-labelledby="sessions-heading">
<h2 id="sessions-heading">{{texts.settings.sessions}}</h2>
{{#if signedOutElsewhere}}<p class="message info" role="status">{{texts.settings.signedOutElsewhere}}</p>{{/if}}
<ul class="sessions">{{#each sessions}}<li>{{@root.texts.settings.signedInAt}} <time datetime="{{authenticatedAt}}">{{authenticatedAtText}}</time>, {{@root.texts.settings.expiresAt}} <time datetime="{{expiresAt}}">{{expiresAtText}}</time>{{#if current}} <strong>({{@root.texts.settings.thisDevice}})</strong>{{/if}}</li>{{/each}}</ul>
<form method="post" action="{{signOutElsewhereAction}}">
<input type="hidden" name="csrf_token" value="{{csrfToken}}">
<button type="submit" class="secondary">{{texts.settings.signOutElsewhere}}</button>
</form>
<p><a href="{{signOutUrl}}">{{texts.settings.signOut}}</a></p>
</section>
{{/if}}
{{#if links.length}}<nav class="links" aria-label="More"><ul>{{#each links}}<li><a href="{{href}}">{{text}}</a></li>{{/each}}</ul></nav>{{/if}}
`,
  'oauth2-login': `<p>{{texts.oauth2Login.signedInAs}} <strong>{{who}}</strong> {{texts.oauth2Login.to}} <strong>{{clientName}}</strong>.</p>
<form method="post" action="{{action}}">
<input type="hidden" name="csrf_token" value="{{csrfToken}}">
<input type="hidden" name="login_challenge" value="{{challenge}}">
<div class="field checkbox"><input type="checkbox" id="remember" name="remember" value="true"><label for="remember">{{texts.oauth2Login.remember}}</label></div>
<div class="actions">
<button type="submit" name="decision" value="accept">{{texts.oauth2Login.accept}}</button>
<button type="submit" name="decision" value="reject" class="secondary">{{texts.oauth2Login.reject}}</button>
</div>
</form>
`,
  consent: `<div class="client">
{{#if client.logoUri}}<img class="client-logo" src="{{client.logoUri}}" alt="{{client.name}}">{{/if}}
<p><strong>{{client.name}}</strong> {{texts.consent.wants}}{{#if who}} (<strong>{{who}}</strong>){{/if}}.</p>
</div>
<form method="post" action="{{action}}">
<input type="hidden" name="csrf_token" value="{{csrfToken}}">
<input type="hidden" name="consent_challenge" value="{{challenge}}">
<p id="scopes-heading">{{texts.consent.asks}}</p>
<ul class="scopes" aria-labelledby="scopes-heading">{{#each scopes}}<li>{{text}}{{#if unknown}} (<code>{{scope}}</code>){{/if}}</li>{{/each}}</ul>
<div class="field checkbox"><input type="checkbox" id="remember" name="remember" value="true"><label for="remember">{{texts.consent.remember}}</label></div>
<div class="actions">
<button type="submit" name="decision" value="accept">{{texts.consent.accept}}</button>
<button type="submit" name="decision" value="reject" class="secondary">{{texts.consent.reject}}</button>
</div>
</form>
{{#if client.links.length}}<nav class="links" aria-label="{{client.name}}"><ul>{{#each client.links}}<li><a href="{{href}}" rel="noopener noreferrer">{{text}}</a></li>{{/each}}</ul></nav>{{/if}}
`,
  logout: `<p>{{texts.logout.question}}</p>
<form method="post" action="{{action}}">
<input type="hidden" name="csrf_token" value="{{csrfToken}}">
<input type="hidden" name="logout_challenge" value="{{challenge}}">
<div class="actions">
<button type="submit" name="decision" value="accept">{{texts.logout.accept}}</button>
<button type="submit" name="decision" value="reject" class="secondary">{{texts.logout.reject}}</button>
</div>
</form>
`,
  message: `<p role="status">{{text}}</p>
{{#if link}}<p><a href="{{link.href}}">{{link.text}}</a></p>{{/if}}
`,
  error: `<div role="alert"><ul class="messages">{{#each errors}}<li class="message error"><span class="code">{{status}} {{label}}</span> {{message}}</li>{{/each}}</ul></div>
<p><a href="{{restartUrl}}">{{texts.error.back}}</a></p>
`,
};
