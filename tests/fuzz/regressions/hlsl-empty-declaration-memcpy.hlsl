float near = __LINE__;
