import sitePagesStyles from "../styles/site-pages.css?url";

/** The stylesheet of contact, feedback, friend links and the school zone. */
export const sitePagesStylesheets = [{ rel: "stylesheet", href: sitePagesStyles }];
