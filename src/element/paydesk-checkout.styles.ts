import { css } from 'lit';

/**
 * Public tokens `--paydesk-*` feed private `--_*` variables; the dark palette only changes the
 * fallbacks, so a merchant's token wins in both themes. No inline styles anywhere (strict CSP).
 */
export const styles = css`
  :host {
    --_accent: var(--paydesk-color-accent, #2b55c9);
    --_on-accent: var(--paydesk-color-on-accent, #fff);
    --_surface: var(--paydesk-color-surface, #fff);
    --_subtle: var(--paydesk-color-subtle, #f3f5f9);
    --_border: var(--paydesk-color-border, #dde2ea);
    --_text: var(--paydesk-color-text, #151922);
    --_muted: var(--paydesk-color-muted, #566070);
    --_success: var(--paydesk-color-success, #15703f);
    --_warning: var(--paydesk-color-warning, #fff4d8);
    --_on-warning: var(--paydesk-color-on-warning, #5f4300);
    --_danger: var(--paydesk-color-danger, #b3261e);
    --_radius: var(--paydesk-radius, 14px);
    --_font: var(--paydesk-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_space: var(--paydesk-spacing, 8px);
    --_width: var(--paydesk-max-width, 440px);
    display: block;
    max-width: var(--_width);
    color: var(--_text);
    font: 400 15px/1.45 var(--_font);
    color-scheme: light;
  }
  :host([hidden]) {
    display: none;
  }
  :host([theme='dark']) {
    --_accent: var(--paydesk-color-accent, #8db0ff);
    --_on-accent: var(--paydesk-color-on-accent, #0b1430);
    --_surface: var(--paydesk-color-surface, #171a21);
    --_subtle: var(--paydesk-color-subtle, #21252e);
    --_border: var(--paydesk-color-border, #363c48);
    --_text: var(--paydesk-color-text, #eef1f6);
    --_muted: var(--paydesk-color-muted, #a7b0be);
    --_success: var(--paydesk-color-success, #5fd49f);
    --_warning: var(--paydesk-color-warning, #3b3014);
    --_on-warning: var(--paydesk-color-on-warning, #ffdc8a);
    --_danger: var(--paydesk-color-danger, #ff8d84);
    color-scheme: dark;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light']):not([theme='dark'])) {
      --_accent: var(--paydesk-color-accent, #8db0ff);
      --_on-accent: var(--paydesk-color-on-accent, #0b1430);
      --_surface: var(--paydesk-color-surface, #171a21);
      --_subtle: var(--paydesk-color-subtle, #21252e);
      --_border: var(--paydesk-color-border, #363c48);
      --_text: var(--paydesk-color-text, #eef1f6);
      --_muted: var(--paydesk-color-muted, #a7b0be);
      --_success: var(--paydesk-color-success, #5fd49f);
      --_warning: var(--paydesk-color-warning, #3b3014);
      --_on-warning: var(--paydesk-color-on-warning, #ffdc8a);
      --_danger: var(--paydesk-color-danger, #ff8d84);
      color-scheme: dark;
    }
  }
  * {
    box-sizing: border-box;
  }
  .card {
    container-type: inline-size;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) * 3);
    display: grid;
    gap: calc(var(--_space) * 2);
    box-shadow: 0 1px 2px rgb(0 0 0 / 0.04), 0 8px 24px rgb(0 0 0 / 0.06);
  }
  .top {
    display: flex;
    align-items: flex-start;
    justify-content: space-between;
    gap: var(--_space);
  }
  h2 {
    margin: 0;
    font-size: 20px;
    line-height: 1.25;
    font-weight: 650;
    outline: none;
  }
  h2:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 4px;
    border-radius: 4px;
  }
  p {
    margin: 0;
  }
  .muted,
  dt,
  .label {
    color: var(--_muted);
    font-size: 13px;
  }
  .timer {
    flex: none;
    display: inline-flex;
    align-items: center;
    gap: 6px;
    padding: 4px 10px;
    border-radius: 999px;
    background: var(--_subtle);
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  .timer.low {
    color: var(--_danger);
  }
  svg {
    width: 18px;
    height: 18px;
    flex: none;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  .amount-box {
    background: var(--_subtle);
    border-radius: calc(var(--_radius) - 4px);
    padding: calc(var(--_space) * 2);
    display: grid;
    gap: 4px;
  }
  .amount-row,
  .value-row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: var(--_space);
  }
  .amount {
    white-space: nowrap;
    font-size: clamp(24px, 10cqi, 34px);
    line-height: 1.15;
    font-weight: 700;
    letter-spacing: -0.01em;
    font-variant-numeric: tabular-nums;
    overflow-wrap: anywhere;
  }
  .warn {
    display: flex;
    gap: 8px;
    align-items: flex-start;
    background: var(--_warning);
    color: var(--_on-warning);
    border-radius: 10px;
    padding: 10px 12px;
    font-size: 14px;
    font-weight: 500;
  }
  dl {
    margin: 0;
    display: grid;
    gap: var(--_space);
  }
  dd {
    margin: 2px 0 0;
    font-size: 17px;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .num {
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
    letter-spacing: 0.02em;
  }
  .pay {
    display: grid;
    gap: calc(var(--_space) * 2);
  }
  .qr {
    justify-self: center;
    display: grid;
    justify-items: center;
    gap: 6px;
    text-align: center;
  }
  canvas {
    width: 176px;
    height: 176px;
    border-radius: 10px;
    border: 1px solid var(--_border);
    image-rendering: pixelated;
    background: #fff;
  }
  button,
  .btn {
    font: inherit;
    font-weight: 600;
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 8px;
    min-height: 44px;
    padding: 10px 18px;
    border-radius: calc(var(--_radius) - 4px);
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: var(--_text);
    text-decoration: none;
    transition: background-color 0.15s, border-color 0.15s;
  }
  button:hover,
  .btn:hover {
    border-color: var(--_accent);
  }
  button:focus-visible,
  a:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_on-accent);
    width: 100%;
  }
  [part='actions'] {
    display: grid;
    gap: var(--_space);
  }
  .primary:hover {
    filter: brightness(1.08);
  }
  .wide {
    width: 100%;
  }
  .copy {
    min-height: 36px;
    min-width: 36px;
    padding: 6px 10px;
    font-size: 13px;
    color: var(--_accent);
    flex: none;
  }
  .copy.done {
    color: var(--_success);
    border-color: var(--_success);
  }
  .methods,
  .banks {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--_space);
  }
  .banks {
    display: flex;
    flex-wrap: wrap;
    margin-top: 6px;
  }
  .banks .btn {
    min-height: 40px;
    padding: 8px 14px;
    font-size: 14px;
  }
  .method {
    width: 100%;
    display: grid;
    grid-template-columns: 1fr auto;
    justify-items: start;
    text-align: start;
    gap: 2px 12px;
    padding: 12px 14px;
  }
  .method .total {
    grid-row: 1 / span 2;
    grid-column: 2;
    align-self: center;
    font-variant-numeric: tabular-nums;
  }
  .method .muted {
    font-weight: 400;
  }
  .center {
    display: grid;
    justify-items: center;
    text-align: center;
    gap: calc(var(--_space) * 1.5);
    padding: calc(var(--_space) * 2) 0;
  }
  .spinner {
    width: 36px;
    height: 36px;
    border-radius: 50%;
    border: 3px solid var(--_border);
    border-top-color: var(--_accent);
    animation: spin 0.9s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  .badge {
    width: 56px;
    height: 56px;
    border-radius: 50%;
    display: grid;
    place-items: center;
    background: var(--_subtle);
  }
  .badge svg {
    width: 30px;
    height: 30px;
  }
  .ok {
    color: var(--_success);
  }
  .bad {
    color: var(--_danger);
  }
  .big {
    font-size: 22px;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
  footer {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: var(--_space);
    border-top: 1px solid var(--_border);
    padding-top: calc(var(--_space) * 1.5);
  }
  footer:empty {
    display: none;
  }
  a {
    color: var(--_accent);
    font-weight: 600;
  }
  footer a {
    display: inline-flex;
    align-items: center;
    min-height: 24px;
  }
  iframe {
    width: 100%;
    min-height: 560px;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
    background: #fff;
  }
  .sr {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
      border-top-color: var(--_border);
      border-right-color: var(--_accent);
    }
    button,
    .btn {
      transition: none;
    }
  }
`;
