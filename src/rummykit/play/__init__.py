"""Playing rummykit as a person: the session, the plain line mode and the Textual app."""
