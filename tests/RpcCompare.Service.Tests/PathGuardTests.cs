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

    [Theory]
    [InlineData("a")]
    [InlineData("sub/a")]
    public void Resolve_OneCharacterName_IsAccepted(string relative)
    {
        Assert.Equal(Path.Combine(_root.FullPath, relative), _guard.Resolve(relative));
    }

    [Fact]
    public void Resolve_PathOfExactlyTheLimit_IsAccepted()
    {
        // 113 names of 8 characters and their separators, then padding: exactly MaxPathChars.
        var path = string.Join('/', Enumerable.Repeat("abcdefgh", 113));
        path += "/" + new string('z', PathGuard.MaxPathChars - path.Length - 1);
        Assert.Equal(PathGuard.MaxPathChars, path.Length);

        Assert.Equal(Path.Combine(_root.FullPath, path), _guard.Resolve(path));
    }

    [Fact]
    public void Resolve_NameOfExactly255Bytes_IsAccepted()
    {
        var name = new string('a', PathGuard.MaxNameBytes);

        Assert.Equal(Path.Combine(_root.FullPath, name), _guard.Resolve(name));
    }

    [Fact]
    public void Resolve_NameOf128TwoByteCharacters_IsRefusedByItsBytesNotItsLength()
    {
        // 128 characters, 256 bytes in UTF-8: the limit is the kernel's, in bytes.
        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve(new string('é', 128)));

        Assert.Contains("255 bytes", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("tab	here")]
    [InlineData("bell")]
    [InlineData("del")]
    public void Resolve_ControlCharacter_IsRefusedAndShownAsQuestionMark(string relative)
    {
        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve(relative));

        Assert.Contains("control character", error.Message, StringComparison.Ordinal);
        var shown = new string([.. relative.Select(c => char.IsControl(c) ? '?' : c)]);
        Assert.Contains($"'{shown}' refused", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_LongRefusedPath_IsEchoedShortened()
    {
        var relative = "/" + new string('x', 100);

        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve(relative));

        Assert.Contains($"'{relative[..60]}...'", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(new string('x', 60), error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_RefusedPathOfExactly60Characters_IsEchoedWhole()
    {
        var relative = "/" + new string('x', 59);

        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve(relative));

        Assert.Contains($"'{relative}' refused", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_SymlinkIntoASiblingWhoseNameStartsWithTheRootsName_IsRefused()
    {
        // Root ".../tmpXYZ", sibling ".../tmpXYZ-evil": a bare prefix test would call it inside.
        var sibling = _root.FullPath + "-evil";
        Directory.CreateDirectory(sibling);
        try
        {
            File.WriteAllText(Path.Combine(sibling, "secret.txt"), "outside");
            File.CreateSymbolicLink(_root.PathFor("evil.txt"), Path.Combine(sibling, "secret.txt"));

            var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve("evil.txt"));

            Assert.Contains("symlink", error.Message, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(sibling, recursive: true);
        }
    }

    [Fact]
    public void Resolve_RootGivenWithTrailingSeparator_StillConfinesToIt()
    {
        var guard = new PathGuard(_root.FullPath + Path.DirectorySeparatorChar);
        File.CreateSymbolicLink(_root.PathFor("escape.txt"), _outside.PathFor("secret.txt"));

        Assert.Equal(_root.PathFor("sub/file.txt"), guard.Resolve("sub/file.txt"));
        Assert.Throws<RpcServiceException>(() => guard.Resolve("escape.txt"));
    }

    [Theory]
    [InlineData("file.txt")]
    [InlineData("./file.txt")]
    [InlineData("../sub/file.txt")]
    public void Resolve_RelativeSymlinkStayingInside_IsResolvedFromTheDirectoryHoldingIt(string target)
    {
        File.CreateSymbolicLink(_root.PathFor("sub/link.txt"), target);

        Assert.Equal(_root.PathFor("sub/file.txt"), _guard.Resolve("sub/link.txt"));
    }

    [Fact]
    public void Resolve_RelativeSymlinkToADirectory_ContinuesFromItsTarget()
    {
        Directory.CreateDirectory(_root.PathFor("a/b"));
        Directory.CreateSymbolicLink(_root.PathFor("a/to-sub"), "../sub");

        Assert.Equal(_root.PathFor("sub/file.txt"), _guard.Resolve("a/to-sub/file.txt"));
    }

    [Fact]
    public void Resolve_ChainOfTheMostLinksLinuxFollows_IsAccepted_OneMoreIsRefused()
    {
        // link0 -> link1 -> ... -> link{n-1} -> sub/file.txt: n links followed in one lookup.
        for (var i = 0; i < RealPath.MaxLinks + 1; i++)
        {
            var target = i == RealPath.MaxLinks ? "sub/file.txt" : $"link{i + 1}";
            File.CreateSymbolicLink(_root.PathFor($"link{i}"), target);
        }

        Assert.Equal(_root.PathFor("sub/file.txt"), _guard.Resolve("link1"));
        var error = Assert.Throws<RpcServiceException>(() => _guard.Resolve("link0"));
        Assert.Contains("Too many levels of symbolic links", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RealPath_Of_ResolvesLinksDotsAndParents()
    {
        Directory.CreateSymbolicLink(_root.PathFor("door"), _root.PathFor("sub"));

        Assert.Equal(_root.PathFor("sub/file.txt"), RealPath.Of(_root.FullPath + "/./door/../door/file.txt"));
        Assert.Equal("/", RealPath.Of("/.."));
    }
}
