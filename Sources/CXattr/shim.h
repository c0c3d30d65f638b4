// Extended attributes (fsetxattr, fgetxattr): the C library's, which Swift's Glibc module does
// not import. No library to link; OwnerAttributes (DarkroomOutput) records outputs' owners with it.
#include <sys/xattr.h>
