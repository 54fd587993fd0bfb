using RpcCompare.Contracts;
using RpcCompare.Service.Internal;
using RpcCompare.Testing;

namespace RpcCompare.Service.Tests;

public sealed class PathGuardTests : IDisposable
{
    private readonly TemporaryDirectory _outside = new();
    private readonly TemporaryDirectory _root = new();
    private readonly PathGuard _guard;

    public PathGuardTests()
    {
        Directory.CreateDirectory(_root.PathFor("sub"));
        File.WriteAllText(_root.PathFor("sub/file.txt"), "inside");
        File.WriteAllText(_outside.PathFor("secret.txt"), "outside");
        _guard = new PathGuard(_root.FullPath);
    }

    public void Dispose()
    {
        _root.Dispose();
        _outside.Dispose();
    }

    [Theory]
    [InlineData(null, "")]
    [InlineData("", "")]
    [InlineData("sub", "sub")]
    [InlineData("sub/file.txt", "sub/file.txt")]
    [InlineData("./sub//file.txt", "sub/file.txt")]
    [InlineData("not-yet-there.txt", "not-yet-there.txt")]
    public void Resolve_PathInsideRoot_ReturnsPathUnderRoot(string? relative, string expected)
    {
        var resolved = _guard.Resolve(relative);

        Assert.Equal(Path.TrimEndingDirectorySeparator(Path.Combine(_root.FullPath, expected)), resolved);
    }

    [Theory]
    [InlineData("/etc/passwd", "absolute")]
    [InlineData("\\etc\\passwd", "absolute")]
    [InlineData("C:/Windows", "absolute")]
    [InlineData("..", "'..'")]
    [InlineData("sub/../../x", "'..'")]
    [InlineData("sub\\..\\..\\x", "'..'")]
    [InlineData("sub/file.txt\0.png", "NUL")]
    [InlineData("line\nbreak", "control")]
    public void Resolve_EscapingPath_IsRefusedWithReason(string relative, string reason)
    {
        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve(relative));

        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\0', error.Message);
    }

    [Fact]
    public void Resolve_NameLongerThan255Bytes_IsRefused()
    {
        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve(new string('a', 256)));

        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
        Assert.Contains("255 bytes", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_PathLongerThanLimit_IsRefused()
    {
        var longPath = string.Join('/', Enumerable.Repeat("abcdefgh", 200));

        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve(longPath));

        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
        Assert.Contains("longer than", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_SymlinkToFileOutsideRoot_IsRefused()
    {
        File.CreateSymbolicLink(_root.PathFor("escape.txt"), _outside.PathFor("secret.txt"));

        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve("escape.txt"));

        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
        Assert.Contains("symlink", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_PathThroughSymlinkedDirectoryOutsideRoot_IsRefused()
    {
        Directory.CreateSymbolicLink(_root.PathFor("door"), _outside.FullPath);

        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve("door/secret.txt"));

        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
    }

    [Fact]
    public void Resolve_RelativeSymlinkClimbingOut_IsRefused()
    {
        File.CreateSymbolicLink(_root.PathFor("sub/up"), "../../");

        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve("sub/up"));

        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
    }

    [Fact]
    public void Resolve_SymlinkStayingInsideRoot_IsAcceptedAsItsRealPath()
    {
        File.CreateSymbolicLink(_root.PathFor("alias.txt"), _root.PathFor("sub/file.txt"));

        var resolved = _guard.Resolve("alias.txt");

        Assert.Equal(_root.PathFor("sub/file.txt"), resolved);
    }

    [Fact]
    public void Resolve_RelativeLinkReachedThroughAnotherLink_IsResolvedWhereItReallyIs()
    {
        // a/b/up leads back to the root, where x climbs out. Resolved against the path as written
        // (a/b/up/x), x's target would seem to stay inside; the operating system would leave.
        Directory.CreateDirectory(_root.PathFor("a/b"));
        Directory.CreateSymbolicLink(_root.PathFor("a/b/up"), _root.FullPath);
        File.CreateSymbolicLink(_root.PathFor("x"), Path.GetRelativePath(_root.FullPath, _outside.FullPath));

        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve("a/b/up/x/secret.txt"));

        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
    }

    [Fact]
    public void Resolve_SymlinkLoop_IsRefused()
    {
        File.CreateSymbolicLink(_root.PathFor("loop1"), _root.PathFor("loop2"));
        File.CreateSymbolicLink(_root.PathFor("loop2"), _root.PathFor("loop1"));

        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve("loop1"));

        Assert.Contains("Too many levels of symbolic links", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_DanglingSymlinkPointingOutside_IsRefused()
    {
        File.CreateSymbolicLink(_root.PathFor("dangling"), _outside.PathFor("does-not-exist"));

        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve("dangling"));

        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
    }
}
