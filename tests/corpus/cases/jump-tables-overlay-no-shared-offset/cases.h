#define CASES(X)                                                                          \
    case 0: X = 3; break;  case 1: X = X * 7; break;   case 2: X = X - 11; break;         \
    case 3: X = X ^ 0x55; break; case 4: X = X << 3; break; case 5: X = X / 3; break;     \
    case 6: X = X + 101; break; case 7: X = ~X; break; case 8: X = X * X; break;          \
    case 9: X = X >> 2; break; case 10: X = X | 0x100; break; case 11: X = X - 1; break;  \
    default: X = -1; break;
