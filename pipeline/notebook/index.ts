/** Running the project's notebooks headlessly, with parameters (papermill's convention). */
export * from "./copy-notebooks";
export * from "./install-kernel";
export * from "./notebook-parameters";
export * from "./run-notebook";
