/**
 * The one stylesheet of the built-in pages (served from the public listener, so the CSP allows styles
 * from 'self' only). Plain CSS, readable on a phone, with UI_PRIMARY_COLOR for buttons and links.
 */
export function uiStylesheet(primaryColor: string): string {
  return `:root { --primary: ${primaryColor}; --text: #1f2933; --muted: #52606d; --border: #9aa5b1; --error: #b42318; --info-bg: #eef2ff; }
*, *::before, *::after { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; font-size: 100%; line-height: 1.5; color: var(--text); background: #f5f7fa; }
body { margin: 0; padding: 1rem; }
.skip { position: absolute; left: -10000px; top: 0; }
.skip:focus { left: 1rem; background: #fff; padding: 0.5rem; }
.brand { display: flex; align-items: center; gap: 0.75rem; max-width: 28rem; margin: 1rem auto; }
.brand .logo { max-height: 2.5rem; max-width: 10rem; }
.brand .product { font-weight: 700; font-size: 1.25rem; }
.card { max-width: 28rem; margin: 0 auto 2rem; background: #fff; border: 1px solid #d9e2ec; border-radius: 0.5rem; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1.125rem; margin: 1.5rem 0 0.75rem; }
form { margin: 0 0 1rem; }
.field { margin: 0 0 1rem; }
.field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.field input { width: 100%; font: inherit; padding: 0.5rem 0.625rem; border: 1px solid var(--border); border-radius: 0.375rem; color: var(--text); background: #fff; }
.field input:focus, button:focus, a:focus { outline: 3px solid var(--primary); outline-offset: 2px; }
.field input[aria-invalid="true"] { border-color: var(--error); }
.field.checkbox { display: flex; align-items: center; gap: 0.5rem; }
.field.checkbox input { width: auto; margin: 0; }
.field.checkbox label { display: inline; font-weight: 400; margin: 0; }
button { font: inherit; font-weight: 600; padding: 0.5rem 1rem; border-radius: 0.375rem; border: 2px solid var(--primary); background: var(--primary); color: #fff; cursor: pointer; min-height: 2.75rem; }
button.secondary { background: #fff; color: var(--primary); }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
a { color: var(--primary); text-decoration: underline; }
.messages { list-style: none; padding: 0; margin: 0 0 1rem; }
.message { padding: 0.5rem 0.75rem; border-radius: 0.375rem; margin: 0.25rem 0; background: var(--info-bg); }
.message.error { background: #fef3f2; color: var(--error); }
.links ul, .sessions, .scopes { padding-left: 1.25rem; }
.links { border-top: 1px solid #d9e2ec; margin-top: 1rem; padding-top: 0.5rem; }
.client { display: flex; align-items: center; gap: 0.75rem; }
.client-logo { max-height: 3rem; max-width: 6rem; }
.code { font-family: ui-monospace, monospace; }
@media (max-width: 30rem) { body { padding: 0.5rem; } .card { padding: 1rem; border-radius: 0; } }
`;
}
