/**
 * The page's theme before its first paint: the storefront, the thanks and the support page load this
 * as a classic script in <head> (`<script src="/src/theme-first.ts" data-classic vite-ignore>`, built into
 * one file of its own by demo/classic-scripts.ts), which runs before the body is parsed and holds the
 * first paint back until it has run, in every engine. Their module scripts are deferred: a page whose
 * theme only they set was painted light first and faded to dark (`?theme=dark`, or this tab's choice).
 * The same reading as theirs: `?theme=`, then this tab's, then the saved one, then the system's.
 */
import { initialTheme, setTheme } from '../../../src/ui-shared/i18n.js';
import { tabPreference } from './tab-prefs.js';

setTheme(tabPreference('theme') ?? initialTheme());
