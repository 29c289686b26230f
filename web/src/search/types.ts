/** Search answers as `/openapi.json` describes them (`searchOrganizationContent`): spaces, each with its best pages. */
export interface SearchSection {
  id: string;
  title: string;
  body: string;
}

export interface SearchPage {
  id: string;
  title: string;
  path: string;
  sections: SearchSection[];
}

export interface SearchSpace {
  id: string;
  title: string;
  pages: SearchPage[];
}
