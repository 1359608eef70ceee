#ifndef ITEMAUDIT_CLIBXML2SHIM_H
#define ITEMAUDIT_CLIBXML2SHIM_H
// The part of libxml2's streaming reader (xmlTextReader) that ItemAudit's CIN import uses, in
// plain C types only. This header must not include any libxml2 header: those pull in the system
// ICU headers, which clash with Foundation's ICU module when Swift imports them. The opaque
// reader and the node kinds below are all Swift sees; libxml2 stays inside CLibXML2Shim.c.

/// A libxml2 text reader; opaque to Swift, freed with itemaudit_xml_reader_free.
typedef struct itemaudit_xml_reader itemaudit_xml_reader;

/// The node kinds the reader reports (libxml2's xmlReaderTypes, narrowed to what CIN needs).
typedef enum {
    ITEMAUDIT_XML_OTHER = 0,
    ITEMAUDIT_XML_ELEMENT = 1,
    ITEMAUDIT_XML_TEXT = 2,
    ITEMAUDIT_XML_END_ELEMENT = 3,
    /// A document type declaration, an entity or an entity reference: always refused.
    ITEMAUDIT_XML_DOCUMENT_TYPE_OR_ENTITY = 4,
} itemaudit_xml_node_kind;

/// Opens a file (or, with the _fd variant, a descriptor such as standard input) with no network,
/// no entity substitution, no DTD loading, no error printing and CDATA as text. NULL on failure.
itemaudit_xml_reader *itemaudit_xml_reader_open_file(const char *path);
itemaudit_xml_reader *itemaudit_xml_reader_open_fd(int fd);
void itemaudit_xml_reader_free(itemaudit_xml_reader *reader);

/// Advances to the next node: 1 on a node, 0 at the end, -1 on an error (see
/// itemaudit_xml_last_error). Clears libxml2's last error first.
int itemaudit_xml_reader_read(itemaudit_xml_reader *reader);
itemaudit_xml_node_kind itemaudit_xml_reader_node_kind(itemaudit_xml_reader *reader);
int itemaudit_xml_reader_depth(itemaudit_xml_reader *reader);
int itemaudit_xml_reader_line(itemaudit_xml_reader *reader);
int itemaudit_xml_reader_is_empty_element(itemaudit_xml_reader *reader);

/// What the importer asks of each node, filled by one call instead of one per question.
typedef struct {
    itemaudit_xml_node_kind kind;
    /// Depth of an element (0 for the root); set for elements only.
    int depth;
    /// 1 for an element written `<a/>` (no end element follows); set for elements only.
    int is_empty;
    /// The local name of an element or end element (libxml2's interned copy, valid while the
    /// reader lives); NULL for other kinds.
    const char *local_name;
} itemaudit_xml_node;

/// Advances to the next node and describes it in *node: 1 on a node, 0 at the end, -1 on an
/// error (see itemaudit_xml_last_error), as itemaudit_xml_reader_read.
int itemaudit_xml_reader_next_node(itemaudit_xml_reader *reader, itemaudit_xml_node *node);

/// The current node's (or attribute's) local name and value as UTF-8; NULL when it has none.
/// Valid until the reader moves.
const char *itemaudit_xml_reader_local_name(itemaudit_xml_reader *reader);
const char *itemaudit_xml_reader_value(itemaudit_xml_reader *reader);

/// Attributes of the current element: move to the next one (1 when there is one), then back.
int itemaudit_xml_reader_move_to_next_attribute(itemaudit_xml_reader *reader);
void itemaudit_xml_reader_move_to_element(itemaudit_xml_reader *reader);

/// libxml2's last error on this thread: 1 and the out-parameters set when there is one (message
/// valid until the next read), 0 when there is none. from_parser is 1 for the parser's domain.
int itemaudit_xml_last_error(int *line, int *column, int *from_parser, const char **message);

#endif
