// SharedTimingWheel files: creation and its mode, reopening (the file's geometry wins), an
// interrupted create, damaged headers, wrong sizes, symlinks and other users' files. Every
// refusal names the file and leaves it as it was.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cadence/shared_timing_wheel.hpp"
#include "shared_wheel_layout.hpp"

namespace cadence {
namespace {

class SharedWheelFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "cadence_shared_wheel_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ::mkdir(dir_.c_str(), 0700);
    path_ = dir_ + "/timers.tw";
    ::unlink(path_.c_str());
  }
  void TearDown() override {
    ::unlink(path_.c_str());
    ::unlink((dir_ + "/link.tw").c_str());
    ::rmdir(dir_.c_str());
  }

  std::vector<char> bytes() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  void write(const std::vector<char>& data) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
  }
  // Opens a wheel that must fail with `code`, with the file named and mentioned `words`, and
  // checks that the file was not touched.
  void expect_refused(Errc code, const std::string& words, std::uint32_t slots = 16, std::uint32_t capacity = 32,
                      std::uint32_t mode = 0600) {
    const std::vector<char> before = bytes();
    auto w = SharedTimingWheel::open(path_, slots, capacity, mode);
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.error().code, code) << w.error().message;
    EXPECT_NE(w.error().message.find(path_), std::string::npos) << "names the file: " << w.error().message;
    EXPECT_NE(w.error().message.find(words), std::string::npos) << w.error().message;
    EXPECT_EQ(bytes(), before) << "the file is as it was";
  }
  std::size_t size_for(std::uint32_t slots, std::uint32_t capacity) const {
    return *SharedTimingWheel::mapping_size(slots, capacity);
  }

  std::string dir_;
  std::string path_;
};

TEST_F(SharedWheelFileTest, ANewFileIsOwnerOnlyAndSharedByEveryoneWhoOpensIt) {
  auto a = SharedTimingWheel::open(path_, 16, 32);
  ASSERT_TRUE(a.ok()) << a.error().message;
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(static_cast<std::size_t>(st.st_size), size_for(16, 32));
  EXPECT_EQ(a->path(), path_);
  EXPECT_EQ(a->memfd(), -1);
  ASSERT_TRUE(a->add(5, 77).ok());
  auto b = SharedTimingWheel::open(path_, 16, 32);
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->count(), 1u);
  EXPECT_EQ(*b->advance(5), std::vector<std::uint64_t>{77});
  EXPECT_EQ(a->now(), 5u);
  EXPECT_TRUE(a->sync().ok());
}

TEST_F(SharedWheelFileTest, WithoutUnnamedFilesANewFileIsCreatedAtItsPath) {
  // As on a file system without O_TMPFILE, until the end of the test.
  struct NamedCreate {
    NamedCreate() { detail::shared_wheel_named_create_only = true; }
    ~NamedCreate() { detail::shared_wheel_named_create_only = false; }
  } named_create;
  const mode_t old = ::umask(077);
  auto a = SharedTimingWheel::open(path_, 16, 32, 0640);
  ::umask(old);
  ASSERT_TRUE(a.ok()) << a.error().message;
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u) << "exactly the mode given";
  ASSERT_TRUE(a->add(3, 5).ok());
  auto b = SharedTimingWheel::open(path_, 16, 32, 0640);
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->count(), 1u) << "attached, not set up again";
  EXPECT_EQ(b->check(), "");
}

TEST_F(SharedWheelFileTest, AnExplicitModeIsAppliedExactlyWhateverTheUmask) {
  const mode_t old = ::umask(077);
  auto w = SharedTimingWheel::open(path_, 16, 32, 0660);
  ::umask(old);
  ASSERT_TRUE(w.ok()) << w.error().message;
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0660u);
  auto bad = SharedTimingWheel::open(dir_ + "/other.tw", 16, 32, 01777);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::invalid_argument);
  EXPECT_NE(bad.error().message.find("01777"), std::string::npos) << bad.error().message;
}

TEST_F(SharedWheelFileTest, TheGeometryOfAnExistingFileWinsButArgumentsAreStillChecked) {
  ASSERT_TRUE(SharedTimingWheel::open(path_, 16, 32).ok());
  auto w = SharedTimingWheel::open(path_, 512, 1000);
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(w->num_slots(), 16u);
  EXPECT_EQ(w->capacity(), 32u);
  auto bad = SharedTimingWheel::open(path_, 0, 1000);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::invalid_argument);
}

TEST_F(SharedWheelFileTest, AFullSizeAllZeroFileIsReinitialised) {
  write(std::vector<char>(size_for(16, 32), 0));  // a creator killed before its header
  auto w = SharedTimingWheel::open(path_, 16, 32);
  ASSERT_TRUE(w.ok()) << w.error().message;
  ASSERT_TRUE(w->add(1, 5).ok());
  EXPECT_EQ(*w->advance(1), std::vector<std::uint64_t>{5});
  EXPECT_EQ(w->check(), "");
}

TEST_F(SharedWheelFileTest, AnEmptyFileIsInitialisedWithTheModeAskedFor) {
  write({});  // a creator killed before it sized the file
  ASSERT_EQ(::chmod(path_.c_str(), 0644), 0);  // the mode its umask gave it
  auto w = SharedTimingWheel::open(path_, 16, 32);
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(w->capacity(), 32u);
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u) << "the mode asked for, not the dead creator's";
}

TEST_F(SharedWheelFileTest, AnAllZeroFileOfAnotherSizeIsNotReinitialised) {
  write(std::vector<char>(size_for(16, 32) + 8, 0));
  expect_refused(Errc::corrupt, "wrong size");
}

TEST_F(SharedWheelFileTest, APartialHeaderIsAnInterruptedCreate) {
  ASSERT_TRUE(SharedTimingWheel::open(path_, 16, 32).ok());
  std::vector<char> data = bytes();
  std::fill(data.begin(), data.begin() + 8, 0);  // everything but the magic, written last
  write(data);
  expect_refused(Errc::corrupt, "incomplete timing-wheel file left by an interrupted create; remove it and retry");
}

TEST_F(SharedWheelFileTest, AFileShorterThanAHeaderIsTooSmallNotAnInterruptedCreate) {
  // An interrupted create leaves an empty file or one of the full size; never a few bytes.
  write(std::vector<char>{1, 2, 3, 4});
  expect_refused(Errc::corrupt, "4 bytes, too small to hold a shared timing wheel");
  EXPECT_EQ(bytes(), (std::vector<char>{1, 2, 3, 4})) << "left as it was";
}

TEST_F(SharedWheelFileTest, CorruptedHeadersAreRefused) {
  ASSERT_TRUE(SharedTimingWheel::open(path_, 16, 32).ok());
  const std::vector<char> good = bytes();
  std::vector<char> data = good;
  data[0] ^= 0x5a;  // the magic
  write(data);
  expect_refused(Errc::corrupt, "not a shared timing wheel");
  data = good;
  data[8] = 9;  // the version
  write(data);
  expect_refused(Errc::corrupt, "version 9");
  data = good;
  for (int i = 16; i < 20; ++i) data[static_cast<std::size_t>(i)] = 0;  // num_slots = 0
  write(data);
  expect_refused(Errc::corrupt, "corrupted header");
  data = good;
  data[16] = 17;  // num_slots 17: the geometry no longer matches the size
  write(data);
  expect_refused(Errc::corrupt, "wrong size");
}

TEST_F(SharedWheelFileTest, AFileOfTheWrongSizeIsRefused) {
  ASSERT_TRUE(SharedTimingWheel::open(path_, 16, 32).ok());
  std::vector<char> data = bytes();
  ASSERT_GT(data.size(), 32u);
  data.erase(data.end() - 32, data.end());  // one timer short
  write(data);
  expect_refused(Errc::corrupt, "wrong size");
  data.insert(data.end(), 4096, 1);  // a page too long
  write(data);
  expect_refused(Errc::corrupt, "wrong size");
}

TEST_F(SharedWheelFileTest, ASymlinkInPlaceOfTheFileIsRefused) {
  ASSERT_TRUE(SharedTimingWheel::open(dir_ + "/link.tw", 16, 32).ok());  // a real wheel elsewhere
  ASSERT_EQ(::symlink((dir_ + "/link.tw").c_str(), path_.c_str()), 0);
  auto w = SharedTimingWheel::open(path_, 16, 32);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, Errc::unsafe);
  EXPECT_NE(w.error().message.find("symbolic link"), std::string::npos) << w.error().message;
  EXPECT_NE(w.error().message.find(path_), std::string::npos);
}

TEST_F(SharedWheelFileTest, AnotherUsersFileIsRefusedUnlessTheModeShares) {
  ASSERT_TRUE(SharedTimingWheel::open(path_, 16, 32, 0666).ok());
  if (::geteuid() != 0) GTEST_SKIP() << "giving a file to another user needs root";
  ASSERT_EQ(::chown(path_.c_str(), 65534, 65534), 0);  // nobody
  expect_refused(Errc::unsafe, "owned by uid 65534");
  auto shared = SharedTimingWheel::open(path_, 16, 32, 0660);
  EXPECT_TRUE(shared.ok()) << "a sharing mode accepts it: " << shared.error().message;
}

TEST_F(SharedWheelFileTest, AnotherUsersEmptyFileIsNeverSetUp) {
  // Someone else's empty file where ours should be: setting a wheel up in it would leave them
  // able to write into our process's mapping.
  write({});
  if (::geteuid() != 0) GTEST_SKIP() << "giving a file to another user needs root";
  ASSERT_EQ(::chown(path_.c_str(), 65534, 65534), 0);
  expect_refused(Errc::unsafe, "only its owner may set one up", 16, 32, 0666);
}

TEST_F(SharedWheelFileTest, AFileWithAnotherHardLinkIsRefused) {
  ASSERT_TRUE(SharedTimingWheel::open(path_, 16, 32).ok());
  const std::string other = path_ + ".link";
  ::unlink(other.c_str());
  ASSERT_EQ(::link(path_.c_str(), other.c_str()), 0);
  expect_refused(Errc::unsafe, "2 hard links");
  ::unlink(other.c_str());
  EXPECT_TRUE(SharedTimingWheel::open(path_, 16, 32).ok()) << "one link again: accepted";
}

TEST_F(SharedWheelFileTest, UnlinkRemovesTheFileAndTheWheelLivesOnInItsMapping) {
  auto w = SharedTimingWheel::open(path_, 16, 32);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(w->add(2, 9).ok());
  ASSERT_TRUE(w->unlink().ok());
  EXPECT_NE(::access(path_.c_str(), F_OK), 0);
  EXPECT_EQ(*w->advance(2), std::vector<std::uint64_t>{9});
  EXPECT_TRUE(SharedTimingWheel::unlink(path_).ok()) << "already gone: what the caller wanted";
  EXPECT_TRUE(w->unlink().ok()) << "twice, through the object too";
  const std::string dir = ::testing::TempDir() + "cadence_unlink_dir_" + std::to_string(::getpid());
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  const Status refused = SharedTimingWheel::unlink(dir);  // a directory: a real failure
  ::rmdir(dir.c_str());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, Errc::system);
  EXPECT_NE(refused.error().message.find(dir), std::string::npos);
}

}  // namespace
}  // namespace cadence
