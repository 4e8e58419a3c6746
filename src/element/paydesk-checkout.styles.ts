import { css } from 'lit';

// Public tokens `--paydesk-*` feed private `--_*` variables, whose defaults (`--_1`…`--_11`) are the
// only thing the dark palette changes: a merchant's token wins in both themes. No inline styles
// anywhere (strict CSP). Written minified, one rule per line: this text ships as is in the bundle.
// Only what the element itself renders (the card, heading, spinner, badge, buttons); the rules of the
// views' shared markup (lists, links, the footer) come with them (views.ts `viewStyles`).
//   --_a accent   --_oa on accent  --_f surface  --_u subtle   --_bc border (--_b the 1px line)   --_t text
//   --_m muted    --_ok success    --_w warning  --_ow on warning           --_no danger
//   --_r radius   --_s spacing

const dark = css`--_1:#8db0ff;--_2:#0b1430;--_3:#171a21;--_4:#21252e;--_5:#363c48;--_6:#eef1f6;--_7:#a7b0be;--_8:#5fd49f;--_9:#3b3014;--_10:#ffdc8a;--_11:#ff8d84;color-scheme:dark`;

export const styles = css`
:host{--_1:#2b55c9;--_2:#fff;--_3:#fff;--_4:#f3f5f9;--_5:#dde2ea;--_6:#151922;--_7:#566070;--_8:#15703f;--_9:#fff4d8;--_10:#5f4300;--_11:#b3261e;--_a:var(--paydesk-color-accent,var(--_1));--_oa:var(--paydesk-color-on-accent,var(--_2));--_f:var(--paydesk-color-surface,var(--_3));--_u:var(--paydesk-color-subtle,var(--_4));--_bc:var(--paydesk-color-border,var(--_5));--_b:1px solid var(--_bc);--_t:var(--paydesk-color-text,var(--_6));--_m:var(--paydesk-color-muted,var(--_7));--_ok:var(--paydesk-color-success,var(--_8));--_w:var(--paydesk-color-warning,var(--_9));--_ow:var(--paydesk-color-on-warning,var(--_10));--_no:var(--paydesk-color-danger,var(--_11));--_r:var(--paydesk-radius,14px);--_s:var(--paydesk-spacing,8px);display:block;max-width:var(--paydesk-max-width,440px);color:var(--_t);font:15px/1.45 var(--paydesk-font,system-ui,sans-serif);color-scheme:light}
:host([hidden]){display:none}
:host([theme=dark]){${dark}}
@media (prefers-color-scheme:dark){:host(:not([theme=light]):not([theme=dark])){${dark}}}
*{box-sizing:border-box;margin:0;padding:0}
.card{container-type:inline-size;display:grid;gap:calc(var(--_s)*2);padding:calc(var(--_s)*3);background:var(--_f);border:var(--_b);border-radius:var(--_r);box-shadow:0 8px 24px #0000000f}
.top{display:flex;align-items:start;justify-content:space-between;gap:var(--_s)}
h2{font-size:20px;line-height:1.25;outline:0}
:focus-visible{outline:2px solid var(--_a);outline-offset:2px}
.muted{color:var(--_m);font-size:13px}
.bad{color:var(--_no)}
svg{width:18px;height:18px;flex:none;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
[part=actions]{display:grid;gap:calc(var(--_s)*2)}
button,.btn{display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:44px;padding:10px 18px;border:var(--_b);border-radius:calc(var(--_r) - 4px);background:var(--_f);color:var(--_t);font:inherit;font-weight:600;text-decoration:none;cursor:pointer;transition:border-color .15s}
button:hover,.btn:hover{border-color:var(--_a)}
.primary{width:100%;background:var(--_a);border-color:var(--_a);color:var(--_oa)}
.center{display:grid;justify-items:center;gap:calc(var(--_s)*1.5);padding:calc(var(--_s)*2) 0;text-align:center}
.spinner{width:36px;height:36px;border:3px solid var(--_bc);border-top-color:var(--_a);border-radius:50%;animation:spin .9s linear infinite}
@keyframes spin{to{transform:rotate(1turn)}}
.badge{display:grid;place-items:center;width:56px;height:56px;border-radius:50%;background:var(--_u)}
.badge svg{width:30px;height:30px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (prefers-reduced-motion:reduce){.spinner{animation:none;border-right-color:var(--_a)}*{transition:none!important}}
`;
