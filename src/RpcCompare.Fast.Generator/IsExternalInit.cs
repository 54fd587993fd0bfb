// Records' init accessors need this type; netstandard2.0 does not have it.
namespace System.Runtime.CompilerServices;

internal static class IsExternalInit
{
}
