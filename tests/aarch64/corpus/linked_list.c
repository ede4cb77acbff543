#include "corpus.h"
typedef struct Node { int value; struct Node* next; } Node;
PROGRAM(linked_list) {
  UNUSED_ARGS;
  Node* head = NULL;
  for (int i = 0; i < 1000; ++i) { Node* n = malloc(sizeof *n); n->value = (i * 37) % 101; n->next = head; head = n; }
  Node* prev = NULL; while (head) { Node* next = head->next; head->next = prev; prev = head; head = next; } head = prev;
  long sum = 0; int count = 0; for (Node* n = head; n; n = n->next) { sum += n->value * (count % 3); ++count; }
  printf("count %d sum %ld first %d\n", count, sum, head->value);
  while (head) { Node* n = head->next; free(head); head = n; }
  return 0;
}
