// The only place libxml2's headers are included (see include/CLibXML2Shim.h for why).
#include "CLibXML2Shim.h"

#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

static int reader_options(void) {
    // XML_PARSE_COMPACT keeps short text inside its node instead of allocating it (xmllint's
    // default too); the reader never changes the tree it frees as it goes.
    return XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA | XML_PARSE_COMPACT;
}

itemaudit_xml_reader *itemaudit_xml_reader_open_file(const char *path) {
    return (itemaudit_xml_reader *)xmlReaderForFile(path, NULL, reader_options());
}

itemaudit_xml_reader *itemaudit_xml_reader_open_fd(int fd) {
    return (itemaudit_xml_reader *)xmlReaderForFd(fd, NULL, NULL, reader_options());
}

void itemaudit_xml_reader_free(itemaudit_xml_reader *reader) {
    xmlFreeTextReader((xmlTextReaderPtr)reader);
}

int itemaudit_xml_reader_read(itemaudit_xml_reader *reader) {
    xmlResetLastError();
    return xmlTextReaderRead((xmlTextReaderPtr)reader);
}

itemaudit_xml_node_kind itemaudit_xml_reader_node_kind(itemaudit_xml_reader *reader) {
    switch (xmlTextReaderNodeType((xmlTextReaderPtr)reader)) {
    case XML_READER_TYPE_ELEMENT:
        return ITEMAUDIT_XML_ELEMENT;
    case XML_READER_TYPE_TEXT:
    case XML_READER_TYPE_CDATA:
        return ITEMAUDIT_XML_TEXT;
    case XML_READER_TYPE_END_ELEMENT:
        return ITEMAUDIT_XML_END_ELEMENT;
    case XML_READER_TYPE_DOCUMENT_TYPE:
    case XML_READER_TYPE_ENTITY:
    case XML_READER_TYPE_ENTITY_REFERENCE:
        return ITEMAUDIT_XML_DOCUMENT_TYPE_OR_ENTITY;
    default:
        return ITEMAUDIT_XML_OTHER;
    }
}

int itemaudit_xml_reader_next_node(itemaudit_xml_reader *reader, itemaudit_xml_node *node) {
    int status = itemaudit_xml_reader_read(reader);
    if (status != 1) {
        return status;
    }
    xmlTextReaderPtr text_reader = (xmlTextReaderPtr)reader;
    node->kind = itemaudit_xml_reader_node_kind(reader);
    node->depth = 0;
    node->is_empty = 0;
    node->local_name = NULL;
    if (node->kind == ITEMAUDIT_XML_ELEMENT) {
        node->depth = xmlTextReaderDepth(text_reader);
        node->is_empty = xmlTextReaderIsEmptyElement(text_reader);
        node->local_name = (const char *)xmlTextReaderConstLocalName(text_reader);
    } else if (node->kind == ITEMAUDIT_XML_END_ELEMENT) {
        node->local_name = (const char *)xmlTextReaderConstLocalName(text_reader);
    }
    return status;
}

int itemaudit_xml_reader_depth(itemaudit_xml_reader *reader) {
    return xmlTextReaderDepth((xmlTextReaderPtr)reader);
}

int itemaudit_xml_reader_line(itemaudit_xml_reader *reader) {
    return xmlTextReaderGetParserLineNumber((xmlTextReaderPtr)reader);
}

int itemaudit_xml_reader_is_empty_element(itemaudit_xml_reader *reader) {
    return xmlTextReaderIsEmptyElement((xmlTextReaderPtr)reader);
}

const char *itemaudit_xml_reader_local_name(itemaudit_xml_reader *reader) {
    return (const char *)xmlTextReaderConstLocalName((xmlTextReaderPtr)reader);
}

const char *itemaudit_xml_reader_value(itemaudit_xml_reader *reader) {
    return (const char *)xmlTextReaderConstValue((xmlTextReaderPtr)reader);
}

int itemaudit_xml_reader_move_to_next_attribute(itemaudit_xml_reader *reader) {
    return xmlTextReaderMoveToNextAttribute((xmlTextReaderPtr)reader);
}

void itemaudit_xml_reader_move_to_element(itemaudit_xml_reader *reader) {
    xmlTextReaderMoveToElement((xmlTextReaderPtr)reader);
}

int itemaudit_xml_last_error(int *line, int *column, int *from_parser, const char **message) {
    const xmlError *error = xmlGetLastError();
    if (error == NULL) {
        return 0;
    }
    *line = error->line;
    *column = error->int2;
    *from_parser = error->domain == XML_FROM_PARSER;
    *message = error->message;
    return 1;
}
