/** Texts of the header and footer that the console's pages and the demo's have in common. */
export const commonEn = {
  'brand.tag': 'coffee roasters',
  'nav.main': 'Main',
  'nav.shop': 'Shop',
  'nav.console': 'Merchant console',
  'tools.lang': 'Language',
  'tools.theme': 'Theme',
  'tools.light': 'Light',
  'tools.dark': 'Dark',
  'footer.support': 'Support',
} as const;

export type CommonKey = keyof typeof commonEn;

export const commonRu: Record<CommonKey, string> = {
  'brand.tag': 'обжарщики кофе',
  'nav.main': 'Главное меню',
  'nav.shop': 'Магазин',
  'nav.console': 'Кабинет мерчанта',
  'tools.lang': 'Язык',
  'tools.theme': 'Тема',
  'tools.light': 'Светлая',
  'tools.dark': 'Тёмная',
  'footer.support': 'Поддержка',
};
