import type { ComponentType } from 'react';

/**
 * The self-service pages, each mounted at its own route by App.tsx. `guard` pages need a logged-in
 * user; `bare` pages render without the sidebar (the header and footer still show).
 */
export interface CustomPage {
  path: string;
  component: ComponentType;
  guard: boolean;
  bare?: boolean;
}

export const customPages: CustomPage[] = [];
