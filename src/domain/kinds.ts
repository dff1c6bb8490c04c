// Loads every module that registers an extra import kind (registerImportKind), so `rivals import`, the demo
// loader and the tests know them. Imported by src/services.ts; add a module here to add kinds.
import "./publicLibrary.ts";
