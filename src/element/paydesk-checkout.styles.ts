import { css } from 'lit';

// Public tokens `--paydesk-*` feed private `--_*` variables, whose defaults (`--_d*`) are the only
// thing the dark palette changes: a merchant's token wins in both themes. No inline styles anywhere
// (strict CSP). Written compactly: this text ships as is in the bundle.

const dark = css`--_d1:#8db0ff;--_d2:#0b1430;--_d3:#171a21;--_d4:#21252e;--_d5:#363c48;--_d6:#eef1f6;--_d7:#a7b0be;--_d8:#5fd49f;--_d9:#3b3014;--_d10:#ffdc8a;--_d11:#ff8d84;color-scheme:dark`;

export const styles = css`
:host {
  --_d1:#2b55c9;--_d2:#fff;--_d3:#fff;--_d4:#f3f5f9;--_d5:#dde2ea;--_d6:#151922;--_d7:#566070;--_d8:#15703f;--_d9:#fff4d8;--_d10:#5f4300;--_d11:#b3261e;
  --_accent: var(--paydesk-color-accent, var(--_d1));
  --_on-accent: var(--paydesk-color-on-accent, var(--_d2));
  --_surface: var(--paydesk-color-surface, var(--_d3));
  --_subtle: var(--paydesk-color-subtle, var(--_d4));
  --_border: var(--paydesk-color-border, var(--_d5));
  --_text: var(--paydesk-color-text, var(--_d6));
  --_muted: var(--paydesk-color-muted, var(--_d7));
  --_success: var(--paydesk-color-success, var(--_d8));
  --_warning: var(--paydesk-color-warning, var(--_d9));
  --_on-warning: var(--paydesk-color-on-warning, var(--_d10));
  --_danger: var(--paydesk-color-danger, var(--_d11));
  --_r: var(--paydesk-radius, 14px);
  --_s: var(--paydesk-spacing, 8px);
  display: block;
  max-width: var(--paydesk-max-width, 440px);
  color: var(--_text);
  font: 15px/1.45 var(--paydesk-font, system-ui, sans-serif);
  color-scheme: light;
}
:host([hidden]) { display: none }
:host([theme=dark]) { ${dark} }
@media (prefers-color-scheme: dark) { :host(:not([theme=light]):not([theme=dark])) { ${dark} } }
* { box-sizing: border-box; margin: 0; padding: 0 }
.card { container-type: inline-size; display: grid; gap: calc(var(--_s) * 2); padding: calc(var(--_s) * 3); background: var(--_surface); border: 1px solid var(--_border); border-radius: var(--_r); box-shadow: 0 8px 24px #0000000f }
.top, .row { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: var(--_s) }
.top { flex-wrap: nowrap; align-items: start }
h2 { font-size: 20px; line-height: 1.25; outline: 0 }
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px }
.muted, dt { color: var(--_muted); font-size: 13px }
.timer { display: flex; align-items: center; gap: 6px; padding: 4px 10px; border-radius: 99px; background: var(--_subtle); font-weight: 600 }
.low, .bad { color: var(--_danger) }
.ok { color: var(--_success) }
svg { width: 18px; height: 18px; flex: none; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round }
.box { display: grid; gap: 4px; padding: calc(var(--_s) * 2); border-radius: calc(var(--_r) - 4px); background: var(--_subtle) }
.amount { white-space: nowrap; font-size: clamp(24px, 10cqi, 34px); line-height: 1.15; font-weight: 700 }
.timer, .amount, .num { font-variant-numeric: tabular-nums }
.num { white-space: nowrap }
.warn { display: flex; gap: 8px; padding: 10px 12px; border-radius: 10px; background: var(--_warning); color: var(--_on-warning); font-size: 14px }
.pay, [part=actions] { display: grid; gap: calc(var(--_s) * 2) }
dl, ul { display: grid; gap: var(--_s); list-style: none }
dd { font-size: 17px; font-weight: 600; overflow-wrap: anywhere }
.qr { display: grid; justify-items: center; gap: 6px }
canvas { width: 176px; height: 176px; border: 1px solid var(--_border); border-radius: 10px; image-rendering: pixelated }
button, .btn { display: inline-flex; align-items: center; justify-content: center; gap: 8px; min-height: 44px; padding: 10px 18px; border: 1px solid var(--_border); border-radius: calc(var(--_r) - 4px); background: var(--_surface); color: var(--_text); font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; transition: border-color .15s }
button:hover, .btn:hover { border-color: var(--_accent) }
.primary { width: 100%; background: var(--_accent); border-color: var(--_accent); color: var(--_on-accent) }
.copy { min-height: 36px; padding: 6px 10px; font-size: 13px; color: var(--_accent) }
.done { color: var(--_success); border-color: var(--_success) }
.banks { display: flex; flex-wrap: wrap; margin-top: 6px }
.banks .btn { min-height: 40px; padding: 8px 14px; font-size: 14px }
.method { width: 100%; display: grid; grid-template-columns: 1fr auto; justify-items: start; gap: 2px 12px; padding: 12px 14px; text-align: start }
.method .muted { font-weight: 400 }
.total { grid-area: 1 / 2 / 3; align-self: center }
.center { display: grid; justify-items: center; gap: calc(var(--_s) * 1.5); padding: calc(var(--_s) * 2) 0; text-align: center }
.spinner { width: 36px; height: 36px; border: 3px solid var(--_border); border-top-color: var(--_accent); border-radius: 50%; animation: spin .9s linear infinite }
@keyframes spin { to { transform: rotate(1turn) } }
.badge { display: grid; place-items: center; width: 56px; height: 56px; border-radius: 50%; background: var(--_subtle) }
.badge svg { width: 30px; height: 30px }
footer { display: flex; flex-wrap: wrap; justify-content: space-between; gap: var(--_s); padding-top: calc(var(--_s) * 1.5); border-top: 1px solid var(--_border) }
a { color: var(--_accent); font-weight: 600 }
footer a { min-height: 24px }
iframe { width: 100%; min-height: 560px; border: 1px solid var(--_border); border-radius: calc(var(--_r) - 4px) }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap }
@media (prefers-reduced-motion: reduce) {
  .spinner { animation: none; border-right-color: var(--_accent) }
  * { transition: none !important }
}
`;
