import localhelper
import mypkg.util
import not_local_either  # want py-unresolved-import "not_local_either"
